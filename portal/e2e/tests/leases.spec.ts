import { randomBytes } from "node:crypto";

import { Interface, parseEther } from "ethers";
import type { Page } from "@playwright/test";

import { deploymentOf, transferSstb } from "../chain";
import { ACCOUNT, checkPage, expect, test } from "../fixtures";
import type { Actor } from "../fixtures";
import { HolderPage, ProviderConsolePage } from "../pages/holders.page";
import { SignInPage } from "../pages/sign-in.page";
import { rpc } from "../wallet";

const SSH_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGx7leasetestkey holder@laptop";
const DAY = 86_400_000;
const manager = new Interface([
  "function registerAccessKey(bytes32 publicKey)",
  "function offerRenewal(uint256 leaseId, uint256 price, uint256 extension, uint256 validUntil)",
  "function terminateLease(uint256 leaseId)",
  "function initiateRedemption(uint256 amount, address provider) returns (uint256)",
  "error RedemptionUnauthorized(uint256 redemptionId, address caller)",
]);
// the manager's read-only views live in RedemptionViews (issue 23: room to grow in the manager)
const views = new Interface(["function accessKeyOf(address user) view returns (bytes32)"]);
const erc20 = new Interface(["function approve(address spender, uint256 amount)"]);

async function signedIn(actor: Actor, path: string): Promise<Page> {
  await new SignInPage(actor.page).signIn(path);
  return actor.page;
}

/** A transaction from one of the node's unlocked accounts, mined (the other party acting outside the page). */
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

async function chainNow(rpcUrl: string): Promise<number> {
  const block = await rpc<{ timestamp: string }>(rpcUrl, "eth_getBlockByNumber", ["latest", false]);
  return Number(block.timestamp);
}

test.describe("Leases", () => {
  test("a holder registers a key and redeems; the provider fulfils with a lease end, offers a renewal; the holder accepts it and terminates", async ({
    actor,
    devnet,
  }) => {
    // three browsers and some twenty transactions
    test.setTimeout(450_000);
    const { chain } = await deploymentOf(devnet.gatewayUrl);
    const managerAddress = chain.contracts.RedemptionManager;
    const holderActor = await actor(ACCOUNT.holder);
    const providerActor = await actor(ACCOUNT.provider);
    const strangerActor = await actor(ACCOUNT.stranger);

    // another key is registered on-chain (another site's, say): the page shows it, and registers the wallet's own
    const other = `0x${randomBytes(32).toString("hex")}`;
    await send(
      devnet.rpcUrl,
      holderActor.address,
      managerAddress,
      manager.encodeFunctionData("registerAccessKey", [other]),
    );
    const page = await signedIn(holderActor, "/portal/holders");
    const holder = new HolderPage(page);
    await expect(holder.keyStatus()).toContainText(other);
    await expect(holder.keyStatus()).toContainText("(not unlocked in this page)");
    await holder.setUpKey().click();
    await expect(holder.keyReady()).toBeVisible({ timeout: 60_000 });
    await expect(holder.keyStatus()).toContainText("matches this wallet's key");
    const registered = await rpc<string>(devnet.rpcUrl, "eth_call", [
      { to: chain.contracts.RedemptionViews, data: views.encodeFunctionData("accessKeyOf", [holderActor.address]) },
      "latest",
    ]);
    expect(registered).not.toBe(other);
    await expect(holder.keyStatus()).toContainText(registered);

    // a key replaced elsewhere shows as a mismatch with the key unlocked in the page
    await send(
      devnet.rpcUrl,
      holderActor.address,
      managerAddress,
      manager.encodeFunctionData("registerAccessKey", [other]),
    );
    await expect(holder.keyStatus()).toContainText("differs from this wallet's key", { timeout: 30_000 });
    await holder.registerWalletKey().click();
    await expect(holder.keyReady()).toBeVisible({ timeout: 60_000 });
    await checkPage(page, "holder-key-registered");

    // the holder redeems; the provider fulfils with a lease end
    await holder.openProvider(providerActor.address);
    const id = await holder.redeem("1");
    const providerPage = await signedIn(providerActor, `/portal/providers/redemptions/${id}`);
    const provider = new ProviderConsolePage(providerPage);
    await expect(providerPage.getByTestId("holder-key")).toContainText(registered);
    const localEnd = await provider.fulfil({
      hostname: `node-${id}.compute.example`,
      username: "holder",
      sshKey: SSH_KEY,
      docs: "https://docs.compute.example/ssh",
    });
    await expect(provider.fulfilled()).toBeVisible({ timeout: 60_000 });
    const end = await providerPage.evaluate((value) => new Date(value).toISOString(), localEnd);
    const now = await chainNow(devnet.rpcUrl);
    expect(Date.parse(end) / 1000 - now, "the default end: 30 days of the chain's time").toBeGreaterThan(29 * 86_400);
    await expect(provider.leaseStatus()).toContainText("active");
    await expect(provider.leaseEnd()).toHaveAttribute("datetime", end);

    // the holder sees the lease, its end and the time left
    await expect(holder.status()).toContainText("fulfilled", { timeout: 30_000 });
    await expect(holder.leaseStatus()).toContainText("active");
    await expect(holder.leaseEnd()).toHaveAttribute("datetime", end);
    await expect(page.getByTestId("lease-time-left")).toContainText(/(29|30) d .* left/);
    await expect(page.getByTestId("no-offer")).toBeVisible();

    // the provider offers a renewal: 2 sSTB for 30 more days
    await provider.offerRenewal("2", "30");
    await expect(provider.standingOffer()).toContainText("2 sSTB", { timeout: 60_000 });
    await checkPage(providerPage, "provider-lease");
    await expect(holder.offer()).toContainText("2 sSTB", { timeout: 30_000 });
    await expect(holder.offer()).toContainText("30 d 0 h");
    await checkPage(page, "redemption-lease-offer");

    // a stranger sees no action, and the contract refuses it anyway
    const strangerPage = await signedIn(strangerActor, `/portal/holders/redemptions/${id}`);
    const strangerView = new HolderPage(strangerPage);
    // redemptions are public reads (the spec's API); the lease's actions are the holder's only
    await expect(strangerView.status()).toContainText(`Redemption #${id}`);
    await expect(strangerPage.getByTestId("not-holder")).toBeVisible();
    await expect(strangerView.offer()).toContainText("2 sSTB");
    await expect(strangerView.terminate()).toHaveCount(0);
    await expect(strangerView.acceptRenewal()).toHaveCount(0);
    await strangerPage.goto(`/portal/providers/redemptions/${id}`);
    await expect(strangerPage.getByText(`Redemption #${id} is not one of yours`)).toBeVisible();
    const refused = await rpc(devnet.rpcUrl, "eth_call", [
      { from: strangerActor.address, to: managerAddress, data: manager.encodeFunctionData("terminateLease", [id]) },
      "latest",
    ]).catch((error: { data?: string }) => error);
    const data = (refused as { data?: string | { data?: string } }).data;
    const revertData = typeof data === "string" ? data : data?.data;
    expect(revertData, "terminateLease by a stranger reverts").toBeDefined();
    expect(manager.parseError(revertData!)?.name).toBe("RedemptionUnauthorized");

    // the provider changes the terms while the holder signs: the acceptance binds to the terms seen and fails, in words
    holderActor.onceBefore.set("eth_signTypedData_v4", async () => {
      const validUntil = (await chainNow(devnet.rpcUrl)) + 3 * 86_400;
      await send(
        devnet.rpcUrl,
        providerActor.address,
        managerAddress,
        manager.encodeFunctionData("offerRenewal", [id, parseEther("3"), 30 * 86_400, validUntil]),
      );
    });
    await holder.acceptRenewal().click();
    const mismatch = page.getByRole("alert").filter({ hasText: "The contract refused" });
    await expect(mismatch).toBeVisible({ timeout: 60_000 });
    await expect(mismatch.getByTestId("error-message")).toContainText("The provider changed the offer: it now asks 3");
    await expect(holder.leaseEnd()).toHaveAttribute("datetime", end);

    // the holder accepts the standing offer and sees the new end
    await expect(holder.offer()).toContainText("3 sSTB", { timeout: 30_000 });
    await holder.acceptRenewal().click();
    const renewedEnd = new Date(Date.parse(end) + 30 * DAY).toISOString();
    await expect(holder.leaseEnd()).toHaveAttribute("datetime", renewedEnd, { timeout: 60_000 });
    await expect(holder.offer()).toHaveCount(0);
    // the holder is told what it cost and which redemption the renewal is
    const renewed = page.getByTestId("renewed");
    await expect(renewed).toContainText("You paid 3.003 sSTB (3 sSTB plus the 0.003 sSTB fee)");
    await expect(renewed).toContainText(/the renewal is redemption #\d+/);
    await checkPage(page, "redemption-renewed");
    await expect(provider.leaseEnd()).toHaveAttribute("datetime", renewedEnd, { timeout: 30_000 });

    // termination asks first; keeping the lease changes nothing
    await holder.terminate().click();
    await expect(page.getByRole("group")).toContainText("there is no refund");
    await checkPage(page, "redemption-terminate-confirm");
    await holder.terminateNo().click();
    await expect(holder.leaseStatus()).toContainText("active");
    await holder.terminate().click();
    await holder.terminateYes().click();
    await expect(holder.leaseStatus()).toContainText("terminated", { timeout: 60_000 });
    await expect(holder.terminate()).toHaveCount(0);
    await expect(holder.acceptRenewal()).toHaveCount(0);
    await checkPage(page, "redemption-terminated");

    // the provider sees the terminated lease to reclaim, on its page and in its console
    await expect(provider.leaseStatus()).toContainText("terminated", { timeout: 30_000 });
    await expect(providerPage.getByTestId("reclaim")).toContainText("The holder terminated this lease");
    await provider.openConsole();
    await expect(provider.leaseRow(id)).toContainText("terminated");
    await expect(provider.leaseRow(id)).toContainText("reclaim the resources");
    await checkPage(providerPage, "provider-console-leases");
  });

  test("the provider cannot fulfil for a holder without an access key, and says why", async ({ actor, devnet }) => {
    const { chain } = await deploymentOf(devnet.gatewayUrl);
    const holderActor = await actor(ACCOUNT.holder);
    const providerActor = await actor(ACCOUNT.provider);
    // an account with sSTB and no registered key redeems outside the portal
    const fresh = await actor(ACCOUNT.keyless);
    const sstb = chain.contracts.SSTB;
    await transferSstb(devnet.rpcUrl, sstb, holderActor.address, fresh.address, "2");
    await send(
      devnet.rpcUrl,
      fresh.address,
      sstb,
      erc20.encodeFunctionData("approve", [chain.contracts.RedemptionManager, parseEther("2")]),
    );
    const before = await rpc<string>(devnet.rpcUrl, "eth_call", [
      {
        from: fresh.address,
        to: chain.contracts.RedemptionManager,
        data: manager.encodeFunctionData("initiateRedemption", [parseEther("1"), providerActor.address]),
      },
      "latest",
    ]);
    await send(
      devnet.rpcUrl,
      fresh.address,
      chain.contracts.RedemptionManager,
      manager.encodeFunctionData("initiateRedemption", [parseEther("1"), providerActor.address]),
    );
    const id = Number(BigInt(before));

    const providerPage = await signedIn(providerActor, `/portal/providers/redemptions/${id}`);
    await expect(providerPage.getByTestId("no-holder-key")).toContainText("has not registered an access key on-chain", {
      timeout: 30_000,
    });
    await expect(providerPage.getByTestId("holder-key")).toContainText("not registered");
    await expect(providerPage.getByRole("button", { name: "Encrypt and fulfil" })).toHaveCount(0);
    await checkPage(providerPage, "fulfil-no-key");
  });
});
