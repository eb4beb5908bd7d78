import { buildModule } from "@nomicfoundation/hardhat-ignition/modules";

/**
 * LOCAL CHAINS ONLY (devnet, tests, benchmark): a devnet CCIP router that a relayer of ours
 * executes messages through. Real chains name Chainlink's router in `deploy/parameters/`.
 *
 * Parameters (`$global`): `chainSelector`, `ccipRelayer`, `ccipFee` (native, per message),
 * `ccipRemoteSelectors`.
 */
export default buildModule("DevnetCCIP", (m) => ({
  router: m.contract("DevnetCCIPRouter", [
    m.getParameter<bigint>("chainSelector"),
    m.getParameter<string>("ccipRelayer"),
    m.getParameter<bigint>("ccipFee"),
    m.getParameter<bigint[]>("ccipRemoteSelectors"),
  ]),
}));
