import { deploymentOf, setInboundSstbLimit, transferSstb } from "../chain";
import { ACCOUNT, checkPage, expect, test } from "../fixtures";
import { BridgePage } from "../pages/bridge.page";
import { SignInPage } from "../pages/sign-in.page";
import { rpc } from "../wallet";

test.describe("Bridge", () => {
  test("a holder sends sSTB from Arbitrum to Ethereum and back, the wallet switched to each chain, the fees quoted before signing", async ({
    actor,
    devnet,
  }) => {
    const { page, address, calls } = await actor(ACCOUNT.bridger);
    // the holder's sSTB on arbitrum: 3, from the devnet's provider
    const accounts = await rpc<string[]>(devnet.rpcUrl, "eth_accounts");
    const sstb = (await deploymentOf(devnet.gatewayUrl)).chain.contracts.SSTB;
    await transferSstb(devnet.rpcUrl, sstb, accounts[ACCOUNT.provider], address, "3");

    await new SignInPage(page).signIn("/portal/bridge");
    const bridge = new BridgePage(page);
    await expect(bridge.balance()).toContainText("You hold 3 sSTB on Arbitrum One", { timeout: 30_000 });
    await expect(bridge.to()).toHaveValue("1");

    // more than the balance is refused before anything is quoted or signed
    await bridge.amount().fill("4");
    await expect(bridge.quote()).toContainText("Your sSTB on Arbitrum One is 3 sSTB: less than 4 sSTB.");
    await expect(bridge.sendButton("Ethereum")).toBeDisabled();

    // 2 sSTB to ethereum, the fee paid in sSTB: every option quoted, the chosen one restated
    await bridge.amount().fill("2");
    await expect(bridge.feeOption(/^the stablecoin \(the default\): [\d.]+ mUSDC$/)).toBeVisible({ timeout: 30_000 });
    await bridge.feeOption(/^sSTB: /).check();
    await expect(bridge.quote()).toContainText(
      "The bridge burns 2 sSTB on Arbitrum One and mints 2 sSTB to you on Ethereum.",
    );
    await expect(bridge.quote()).toContainText("of CCIP's fee (the transaction's value)");
    await checkPage(page, "bridge-send");
    await bridge.sendButton("Ethereum").click();
    await expect(bridge.status()).toContainText("status completed", { timeout: 90_000 });
    await expect(bridge.status()).toContainText("from Arbitrum One to Ethereum");
    await checkPage(page, "bridge-delivered");

    // the wallet moves to ethereum (added first: it did not know the chain), the form sends from there
    await bridge.switchWalletTo("Ethereum").click();
    await expect(bridge.balance()).toContainText("You hold 2 sSTB on Ethereum", { timeout: 30_000 });
    expect(calls.map((c) => c.method)).toContain("wallet_addEthereumChain");
    await expect(bridge.to()).toHaveValue("42161");

    // 1 sSTB back to arbitrum: a fee in the stablecoin, which the holder has none of here, is refused first
    await bridge.amount().fill("1");
    await bridge.feeOption(/^the stablecoin \(the default\)/).check();
    await expect(bridge.quote()).toContainText(/Your mUSDC on Ethereum is 0 mUSDC: less than the fee of [\d.]+ mUSDC/, {
      timeout: 30_000,
    });
    await expect(bridge.sendButton("Arbitrum One")).toBeDisabled();
    await bridge.feeOption(/^sSTB: /).check();
    await expect(bridge.quote()).toContainText(
      "The bridge burns 1 sSTB on Ethereum and mints 1 sSTB to you on Arbitrum One.",
      {
        timeout: 30_000,
      },
    );
    await bridge.sendButton("Arbitrum One").click();
    await expect(bridge.status()).toContainText("from Ethereum to Arbitrum One", { timeout: 90_000 });
    await expect(bridge.status()).toContainText("status completed", { timeout: 90_000 });

    // back on arbitrum: what left came back, less the fee paid in sSTB on the way out
    await bridge.switchWalletTo("Arbitrum One").click();
    const held = async () => Number(/You hold ([\d.]+) sSTB/.exec((await bridge.balance().textContent()) ?? "")?.[1]);
    await expect.poll(held, { timeout: 30_000 }).toBeGreaterThan(1.9);
    expect(await held()).toBeLessThan(2);
  });
});

test.describe("Bridge: a queued delivery", () => {
  test("a holder whose transfer waits in Ethereum's queue sees its place and the time until it completes, and delivers it in installments", async ({
    actor,
    devnet,
  }) => {
    const { page, address } = await actor(ACCOUNT.queuedBridger);
    const accounts = await rpc<string[]>(devnet.rpcUrl, "eth_accounts");
    const config = await deploymentOf(devnet.gatewayUrl);
    await transferSstb(devnet.rpcUrl, config.chain.contracts.SSTB, accounts[ACCOUNT.provider], address, "3");
    // Ethereum's governance (its executor) lets in at most 1 sSTB from Arbitrum, refilling 0.05 a second
    const ethereum = config.chains.find((c) => c.chain_id === 1)!;
    const limits = await setInboundSstbLimit(devnet, ethereum, config.chain, { capacity: "1", rate: "0.05" });
    try {
      await new SignInPage(page).signIn("/portal/bridge");
      const bridge = new BridgePage(page);
      await expect(bridge.balance()).toContainText("You hold 3 sSTB on Arbitrum One", { timeout: 30_000 });
      await bridge.amount().fill("1.5");
      await bridge.feeOption(/^sSTB: /).check();
      await expect(bridge.quote()).toContainText("The bridge burns 1.5 sSTB", { timeout: 30_000 });
      await bridge.sendButton("Ethereum").click();

      // more than the limit holds: it waits, first in its queue, 10 s of refill from complete
      await expect(bridge.status()).toContainText("status queued", { timeout: 90_000 });
      await expect(bridge.queue()).toContainText("It is next in its queue; it has 1.5 sSTB to deliver.");
      await expect(bridge.queue()).toContainText(
        "Ethereum lets in 1 sSTB now from there (at most 1 sSTB at once, refilling 0.05 sSTB a second).",
      );
      await expect(bridge.queueEta()).toContainText("All of it can be delivered in about 10 s");
      await expect(bridge.queueEta()).toContainText("by Ethereum's clock");
      // one installment can go now, on Ethereum: the wallet is switched there first
      await bridge.switchWalletTo("Ethereum").click();
      await bridge.deliverButton(/^Deliver 1 sSTB of it now \(one installment\)$/).click();
      await expect(bridge.queue()).toContainText("Delivered 1 sSTB on Ethereum.", { timeout: 30_000 });
      await expect(bridge.queue()).toContainText("it has 0.5 sSTB to deliver.", { timeout: 30_000 });
      await expect(bridge.queue()).toContainText("Anyone may deliver it once the limit holds its next installment.");
      await checkPage(page, "bridge-queued");

      // ten seconds later by Ethereum's clock the rest goes, and the transfer is complete
      await rpc(ethereum.wallet_rpc_urls[0]!, "evm_increaseTime", [10]);
      await rpc(ethereum.wallet_rpc_urls[0]!, "evm_mine");
      await bridge.deliverButton(/^Deliver it now \(0\.5 sSTB\)$/).click({ timeout: 30_000 });
      await expect(bridge.status()).toContainText("status completed", { timeout: 30_000 });
      await expect(bridge.balance()).toContainText("You hold 1.5 sSTB on Ethereum", { timeout: 30_000 });
    } finally {
      await limits.restore();
    }
  });
});
