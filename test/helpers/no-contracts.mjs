// `node --import tsx --import ./test/helpers/no-contracts.mjs ...`: a module-resolution hook that
// fails any import of the compiled contracts (TypeChain bindings or Hardhat artifacts), so a test
// can show that a command runs without them (test/integration/gateway/Cli.test.ts).
import { register } from "node:module";

const hooks = `
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (/\\/(typechain-types|artifacts)\\//.test(resolved.url)) {
    throw new Error("no-contracts: the command loaded " + resolved.url);
  }
  return resolved;
}`;
register("data:text/javascript," + encodeURIComponent(hooks));
