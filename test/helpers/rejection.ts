/**
 * The error a promise rejects with, for tests that do not load Hardhat's chai plugins (whose
 * `rejectedWith` comes with a network connection); fails if it resolves.
 */
export async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected the promise to reject, but it resolved");
}
