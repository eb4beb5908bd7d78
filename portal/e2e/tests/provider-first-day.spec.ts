import { Interface } from "ethers";

import { hashReviewedProfile } from "@compute-capacity/sdk";

import { deploymentOf } from "../chain";
import { ACCOUNT, checkPage, expect, test } from "../fixtures";
import { HolderPage, ProviderConsolePage } from "../pages/holders.page";
import { ProviderOnboardingPage } from "../pages/provider-onboarding.page";
import { SignInPage } from "../pages/sign-in.page";
import { rpc } from "../wallet";

const SSH_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGx7firstdaytestkey holder@laptop";
const registry = new Interface(["function approveProvider(address provider, bytes32 reviewedProfileHash)"]);
const PROFILE = {
  name: "First Day Compute",
  country: "PT",
  region: "Lisboa",
  email: "ops@firstday.example",
  website: "https://firstday.example",
  cpuType: "AMD EPYC 9654",
  totalCpuCores: 64,
  totalRamGb: 256,
  totalStorageGb: 4096,
  networkCapacityMbps: 10_000,
};

/** A transaction from one of the node's unlocked accounts (a party outside the browser), mined. */
async function send(rpcUrl: string, from: string, to: string, data: string): Promise<void> {
  const hash = await rpc<string>(rpcUrl, "eth_sendTransaction", [{ from, to, data }]);
  for (let i = 0; i < 100; i++) {
    const receipt = await rpc<{ status: string } | null>(rpcUrl, "eth_getTransactionReceipt", [hash]);
    if (receipt !== null) {
      expect(receipt.status, `transaction ${hash}`).toBe("0x1");
      return;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`transaction ${hash} was not mined`);
}

test.describe("A provider's first day", () => {
  test("a new account registers, is approved, deposits and withdraws collateral, verifies a unit, mints, fulfils a redemption and retires capacity, all in the browser", async ({
    actor,
    devnet,
  }) => {
    // some thirty transactions and two browsers: the longest flow of the suite
    test.setTimeout(600_000);
    const { chain } = await deploymentOf(devnet.gatewayUrl);
    const newcomer = await actor(ACCOUNT.newProvider);
    const approver = (await rpc<string[]>(devnet.rpcUrl, "eth_accounts"))[ACCOUNT.approver];
    await new SignInPage(newcomer.page).signIn("/portal/providers");
    const page = newcomer.page;
    const onboarding = new ProviderOnboardingPage(page);

    // nothing yet: the console offers registration (profile, tier, staking period)
    await expect(onboarding.registerHeading()).toBeVisible();
    await onboarding.fillProfile(PROFILE);
    await onboarding.tier("Premium").check();
    await onboarding.stakingDays().fill("7");
    await checkPage(page, "provider-register");
    await onboarding.registerButton().click();

    // in review: governance's approver sees the hash it approves
    await expect(onboarding.review()).toContainText("Under review", { timeout: 60_000 });
    const hash = hashReviewedProfile(PROFILE, 1);
    await expect(onboarding.review()).toContainText(hash, { timeout: 30_000 });
    await expect(
      page.getByText("Verification and minting open once governance has approved your profile"),
    ).toBeVisible();
    await checkPage(page, "provider-review");

    // the approver approves it as governance would: outside the browser, with the approver role
    await send(
      devnet.rpcUrl,
      approver,
      chain.contracts.ProviderRegistry,
      registry.encodeFunctionData("approveProvider", [newcomer.address, hash]),
    );
    await expect(page.getByRole("heading", { level: 1 })).toContainText("active", { timeout: 30_000 });

    // collateral: test mUSDC from the devnet's faucet, a deposit (with what it allows), a withdrawal
    await onboarding.faucet().click();
    await expect(onboarding.walletCollateral()).toContainText("1,000 mUSDC", { timeout: 60_000 });
    await onboarding.deposit("60");
    await expect(onboarding.account()).toContainText("60 mUSDC", { timeout: 60_000 });
    await expect(onboarding.allows()).toContainText("backs 50 sSTB in all");
    await onboarding.withdraw("10");
    await expect(onboarding.withdrawable()).toContainText("50 mUSDC", { timeout: 60_000 });
    await checkPage(page, "provider-collateral");

    // a benchmark signed in the wallet, submitted to the gateway's verifiers: the attestations arrive
    await onboarding.submitBenchmark().click();
    await expect(onboarding.verification()).toContainText("verified", { timeout: 60_000 });
    await expect(onboarding.attestations()).toContainText(/(\d) of \1 needed/);
    await expect(onboarding.attestations().getByRole("listitem")).not.toHaveCount(0);
    await expect(onboarding.mintTerms()).toContainText("100 sSTB");
    // what the mint escrows, before signing: 120 mUSDC back 100 sSTB, 50 are deposited already
    await expect(onboarding.mintTerms()).toContainText("70 mUSDC from your wallet into the registry");
    await checkPage(page, "provider-verification");
    await onboarding.mintButton().click();
    await expect(onboarding.minted()).toContainText("Minted 100 sSTB", { timeout: 60_000 });
    await checkPage(page, "provider-minted");

    // a holder redeems with the new provider; the new provider fulfils in its browser
    const holderActor = await actor(ACCOUNT.holder);
    await new SignInPage(holderActor.page).signIn("/portal/holders");
    const holder = new HolderPage(holderActor.page);
    if (!(await holder.keyReady().isVisible())) {
      await holder.setUpKey().click();
      await expect(holder.keyReady()).toBeVisible({ timeout: 60_000 });
    }
    await holder.openProvider(newcomer.address);
    await expect(holderActor.page.getByRole("heading", { level: 1 })).toContainText(PROFILE.name);
    const id = await holder.redeem("1");
    const console = new ProviderConsolePage(page);
    await console.openConsole();
    await expect(console.incoming(id)).toBeVisible({ timeout: 30_000 });
    await console.openRedemption(id);
    await console.fulfil({
      hostname: `node-${id}.firstday.example`,
      username: "holder",
      sshKey: SSH_KEY,
      docs: "https://docs.firstday.example/ssh",
    });
    await expect(console.fulfilled()).toBeVisible({ timeout: 60_000 });
    await expect(holder.status()).toContainText("fulfilled", { timeout: 30_000 });

    // after the staking period (7 days of the chain's time) part of the capacity is retired
    await console.openConsole();
    await onboarding.retire("5");
    await expect(onboarding.retireHelp()).toContainText("still staked");
    await rpc(devnet.rpcUrl, "evm_increaseTime", [7 * 86_400 + 60]);
    await rpc(devnet.rpcUrl, "evm_mine", []);
    await page.reload();
    await onboarding.retire("5");
    await onboarding.retireButton().click();
    await expect(page.getByText("Retired.")).toBeVisible({ timeout: 60_000 });
    await checkPage(page, "provider-retired");
  });
});
