import { buildModule } from "@nomicfoundation/hardhat-ignition/modules";

import TokensModule from "./Tokens.js";

/**
 * A satellite chain (Ethereum, Polygon): the tokens only, sharing the `Tokens` module with the
 * primary chain. The bridge joins in a later issue, and with it the roles to mint and burn.
 */
export default buildModule("Satellite", (m) => m.useModule(TokensModule));
