import { buildModule } from "@nomicfoundation/hardhat-ignition/modules";

/** Local chains only: a mintable 6-decimal stand-in for USDC. Real chains name USDC's address. */
export default buildModule("MockCollateral", (m) => ({ collateral: m.contract("MockStablecoin") }));
