import { ACCOUNT, checkPage, expect, test } from "../fixtures";
import { HolderPage } from "../pages/holders.page";
import { MarketsPage } from "../pages/markets.page";
import { SignInPage } from "../pages/sign-in.page";

test.describe("Markets: spot", () => {
  test("a holder without sSTB buys some on the spot market and redeems it; the seller lists and cancels the rest", async ({
    actor,
  }) => {
    const sellerActor = await actor(ACCOUNT.provider);
    const buyerActor = await actor(ACCOUNT.newHolder);

    // the seller lists 5 sSTB at 1.5 mUSDC each, told first what the market escrows
    await new SignInPage(sellerActor.page).signIn("/portal/markets");
    const seller = new MarketsPage(sellerActor.page);
    await expect(seller.listTerms()).toContainText("5 sSTB move from your wallet into the market's escrow");
    await expect(seller.listTerms()).toContainText("buyers pay 7.5 mUSDC");
    const id = await seller.list("5", "1.5");
    await expect(seller.listing(id)).toContainText("5 sSTB", { timeout: 30_000 });
    await checkPage(sellerActor.page, "markets");

    // the buyer has no sSTB: test mUSDC from the devnet faucet, then 2 sSTB from the listing
    await new SignInPage(buyerActor.page).signIn("/portal/holders");
    await expect(buyerActor.page.getByTestId("balance-total")).toHaveText("0 sSTB");
    const buyer = new MarketsPage(buyerActor.page);
    await buyer.open();
    await buyer.faucet().click();
    await expect(buyerActor.page.getByText("1,000 mUSDC are in your wallet.")).toBeVisible({ timeout: 60_000 });
    await buyer.buyFrom(id).click({ timeout: 30_000 });
    await buyer.buyAmount().fill("2");
    // the payment and its fee, read from the market before anything is signed
    await expect(buyer.buyQuote()).toContainText("You pay 3 mUSDC for 2 sSTB, of which");
    await expect(buyer.buyQuote()).toContainText("is the market's fee");
    await checkPage(buyerActor.page, "markets-buy");
    await buyer.buyButton().click();
    await expect(buyer.bought()).toContainText("Bought 2 sSTB for 3 mUSDC", { timeout: 60_000 });
    await expect(buyer.listing(id)).toContainText("3 sSTB", { timeout: 30_000 });

    // the seller cancels the rest: the escrow comes back
    await seller.cancel(id).click();
    await expect(sellerActor.page.getByText("Listing cancelled")).toBeVisible({ timeout: 60_000 });
    await expect(seller.listing(id)).toHaveCount(0, { timeout: 30_000 });

    // the buyer redeems 1 of the 2 sSTB it bought
    const holder = new HolderPage(buyerActor.page);
    await holder.openHolder();
    await expect(buyerActor.page.getByTestId("balance-total")).toHaveText("2 sSTB", { timeout: 30_000 });
    await holder.setUpKey().click();
    await expect(holder.keyReady()).toBeVisible({ timeout: 60_000 });
    await holder.openProvider(sellerActor.address);
    const redemption = await holder.redeem("1");
    await expect(holder.status()).toContainText(`Redemption #${redemption}`);
    await expect(holder.status()).toContainText("pending");
  });
});
