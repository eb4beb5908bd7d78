import { ACCOUNT, checkPage, expect, test } from "../fixtures";
import { FuturesPage } from "../pages/futures.page";
import { HolderPage } from "../pages/holders.page";
import { MarketsPage } from "../pages/markets.page";
import { OptionsPage } from "../pages/options.page";
import { SignInPage } from "../pages/sign-in.page";
import { rpc } from "../wallet";

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

test.describe("Markets: options", () => {
  test("a provider writes a call, a holder buys it and exercises it, each figure shown before signing", async ({
    actor,
  }) => {
    const writerActor = await actor(ACCOUNT.provider);
    const buyerActor = await actor(ACCOUNT.optionBuyer);

    // the writer offers a call on 1 sSTB at a strike of 1 mUSDC for a premium of 0.2 mUSDC per sSTB
    await new SignInPage(writerActor.page).signIn("/portal/markets/options");
    const writer = new OptionsPage(writerActor.page);
    await writer.fillWrite({ amount: "1", strike: "1", premium: "0.2" });
    await expect(writer.writeTerms()).toContainText("The market escrows 1 sSTB from your wallet", { timeout: 30_000 });
    await expect(writer.writeTerms()).toContainText("A buyer pays 0.2 mUSDC of premium");
    await checkPage(writerActor.page, "options-write");
    const id = await writer.write();
    await expect(writer.option(id)).toContainText("call", { timeout: 30_000 });

    // the buyer gets test mUSDC, then buys the option, told the premium and its fee first
    await new SignInPage(buyerActor.page).signIn("/portal/markets");
    const spot = new MarketsPage(buyerActor.page);
    await spot.faucet().click();
    await expect(buyerActor.page.getByText("1,000 mUSDC are in your wallet.")).toBeVisible({ timeout: 60_000 });
    const buyer = new OptionsPage(buyerActor.page);
    await buyer.open();
    await buyer.buyFrom(id).click({ timeout: 30_000 });
    await expect(buyer.buyQuote()).toContainText("You pay a premium of 0.2 mUSDC, of which");
    await expect(buyer.buyQuote()).toContainText("to buy up to 1 sSTB at 1 mUSDC per sSTB");
    await checkPage(buyerActor.page, "options-buy");
    await buyer.buyButton().click();
    await expect(buyer.bought()).toContainText(`you hold option #${id}`, { timeout: 60_000 });

    // the bought option leaves the list; the page shows it by its number, with the exercise priced first
    await expect(buyer.option(id)).toHaveCount(0, { timeout: 30_000 });
    await expect(buyer.position()).toContainText("1 sSTB still exercisable", { timeout: 30_000 });
    await expect(buyer.exerciseQuote()).toContainText(
      "You pay 1 mUSDC (the strike) and receive 1 sSTB from the escrow",
    );
    await checkPage(buyerActor.page, "options-exercise");
    await buyer.exerciseButton().click();
    await expect(buyer.exercised()).toContainText("Exercised: 1 mUSDC at the strike", { timeout: 60_000 });
    await expect(buyer.position()).toContainText("status exercised", { timeout: 30_000 });
  });
});

test.describe("Markets: futures", () => {
  test("a provider offers to sell sSTB at settlement, a holder takes it, and once the chain's clock reaches the settlement time the holder settles it", async ({
    actor,
    devnet,
  }) => {
    const makerActor = await actor(ACCOUNT.provider);
    const takerActor = await actor(ACCOUNT.optionBuyer);

    // the maker offers to sell 2 sSTB at 1.5 mUSDC each, settled in a day, told the escrow and the fee first
    await new SignInPage(makerActor.page).signIn("/portal/markets/futures");
    const maker = new FuturesPage(makerActor.page);
    await maker.fillOffer({ side: "sell", amount: "2", price: "1.5", days: "1" });
    await expect(maker.offerTerms()).toContainText("The market escrows 2 sSTB from your wallet until settlement on", {
      timeout: 30_000,
    });
    await expect(maker.offerTerms()).toContainText("At settlement 3 mUSDC changes hands, of which");
    await checkPage(makerActor.page, "futures-offer");
    const id = await maker.makeOffer();
    await expect(maker.offer(id)).toContainText("sells", { timeout: 30_000 });

    // the taker gets test mUSDC, then takes the offer whole, told the payment it escrows first
    await new SignInPage(takerActor.page).signIn("/portal/markets");
    await new MarketsPage(takerActor.page).faucet().click();
    await expect(takerActor.page.getByText("1,000 mUSDC are in your wallet.")).toBeVisible({ timeout: 60_000 });
    const taker = new FuturesPage(takerActor.page);
    await taker.open();
    await taker.takeFrom(id).click({ timeout: 30_000 });
    await expect(taker.takeQuote()).toContainText("You buy 2 sSTB for 3 mUSDC.");
    await expect(taker.takeQuote()).toContainText("The market escrows 3 mUSDC from your wallet now");
    await checkPage(takerActor.page, "futures-take");
    await taker.takeButton().click();
    await expect(taker.taken()).toContainText(`Taken: future #${id} settles on`, { timeout: 60_000 });

    // matched, it leaves the open offers and is followed by its number; Settle waits for the chain's clock
    await expect(taker.offer(id)).toHaveCount(0, { timeout: 30_000 });
    await expect(taker.position()).toContainText("status matched", { timeout: 30_000 });
    await expect(taker.position()).toContainText("Settle becomes possible at the settlement time");
    await expect(taker.settleButton(id)).toHaveCount(0);

    // a day later by the chain's clock (the computer's clock has not moved), anyone may settle it
    await rpc(devnet.rpcUrl, "evm_increaseTime", [86_400 + 120]);
    await rpc(devnet.rpcUrl, "evm_mine", []);
    await taker.open();
    await taker.show(id);
    await expect(taker.position()).toContainText("the settlement time has come", { timeout: 30_000 });
    await checkPage(takerActor.page, "futures-settle");
    await taker.settleButton(id).click({ timeout: 30_000 });
    await expect(taker.settled()).toContainText("Settled: 2 sSTB to the buyer;", { timeout: 60_000 });
    await expect(taker.settled()).toContainText("to the seller after the market's fee of");
    await expect(taker.position()).toContainText("status settled", { timeout: 30_000 });
  });
});
