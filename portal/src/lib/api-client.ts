import { createApiClient, unwrap } from "@compute-capacity/sdk";
import type { ApiClient } from "@compute-capacity/sdk";

import { GatewayUnreachableError } from "./errors";

/** The header the gateway requires on every cookie-authenticated write (CSRF). */
export const CSRF_HEADER = "x-portal-request";

type Listener = () => void;
const signedOutListeners = new Set<Listener>();

/** Called whenever the gateway answers 401 to a call that needed the session: back to sign-in. */
export function onSignedOut(listener: Listener): () => void {
  signedOutListeners.add(listener);
  return () => signedOutListeners.delete(listener);
}

/** The platform's fetch, with the gateway's absence and a lost session turned into errors the pages show. */
async function portalFetch(request: Request): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(request);
  } catch (error) {
    throw new GatewayUnreachableError("The gateway did not answer: check your connection or that it is running.", {
      cause: error,
    });
  }
  const path = new URL(request.url).pathname;
  if (response.status === 401 && !path.endsWith("/session") && !path.endsWith("/session/nonce")) {
    for (const listener of signedOutListeners) listener();
  }
  return response;
}

/**
 * The one HTTP client of the portal: the SDK's typed client of the gateway's API (every path,
 * parameter and answer typed from the gateway's OpenAPI document) on the page's own origin, with the
 * session cookie (same origin), the CSRF header, and 401 handling.
 */
export const api: ApiClient = createApiClient({
  baseUrl: window.location.origin,
  headers: { [CSRF_HEADER]: "1" },
  fetch: portalFetch,
});

/** The `data` of a successful answer, or the `ApiResponseError` of its code. */
export { unwrap };
