import { parseEther } from "ethers";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/types";

import type { IgnitionConnection } from "../../deploy/deploy.js";
import { LOCAL_GOVERNANCE } from "../../devnet/samples.js";
import { deployProtocol, mintFor, registerActive } from "./protocol.js";
import type { ProtocolFixture } from "./protocol.js";

export const GOVERNANCE = LOCAL_GOVERNANCE;

export interface GovernedFixture extends ProtocolFixture {
  voter: HardhatEthersSigner;
}

/**
 * A deployment exactly as on a real chain (roles handed to the timelock), with an active
 * provider, a pending redemption (id 1) by the user, the treasury's votes delegated to itself and
 * 5% of the supply with a second voter.
 */
export async function deployGovernedProtocol(connection: IgnitionConnection): Promise<GovernedFixture> {
  const { ethers } = connection;
  const f = await deployProtocol(connection, { handOff: true });
  const voter = (await ethers.getSigners())[9];
  const { governanceToken: token, treasury, provider, user } = f;

  await token.connect(treasury).transfer(voter.address, (await token.totalSupply()) / 20n);
  await token.connect(treasury).delegate(treasury.address);
  await token.connect(voter).delegate(voter.address);

  // a provider with capacity and a user with a pending redemption, to show upgrades keep them
  await registerActive(f, provider);
  await mintFor(f, provider, parseEther("100"));
  await f.sstb.connect(provider).transfer(user.address, parseEther("20"));
  await f.sstb.connect(user).approve(await f.redemptionManager.getAddress(), ethers.MaxUint256);
  await f.redemptionManager.connect(user).initiateRedemption(parseEther("10"), provider.address);

  return { ...f, voter };
}
