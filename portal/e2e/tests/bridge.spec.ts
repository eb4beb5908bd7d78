import { deploymentOf, transferSstb } from "../chain";
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
