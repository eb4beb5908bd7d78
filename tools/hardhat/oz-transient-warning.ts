import { definePlugin } from "hardhat/plugins";

/**
 * A local Hardhat plugin that drops one compiler warning: solc's note on transient storage
 * (EIP-1153) where it points at OpenZeppelin's `utils/TransientSlot.sol`, which every build prints
 * because the redemption manager, the markets and the bridge use `ReentrancyGuardTransient`. The
 * warning itself says a reentrancy guard cleared at the end of the call is safe, which is all that
 * library does; a `tstore` anywhere else (our own contracts included) still warns. Uses the build
 * system's `getCompilationJobErrors` hook, meant for this, so nothing else of the output changes.
 */
export default definePlugin({
  id: "local-oz-transient-warning",
  hookHandlers: {
    solidity: () => import("./oz-transient-warning-hooks.js"),
  },
});
