import { expect } from "chai";
import { JsonRpcProvider, Wallet } from "ethers";
import type { Provider } from "ethers";

import { AccountQueue } from "../../../gateway/accounts/signer.js";
import { ApiError } from "../../../gateway/api/errors.js";
import { TransactionSender } from "../../../gateway/writes/sender.js";
import { sharedLiveDeployment } from "../../../testing/fixtures.js";
import type { LiveDeployment } from "../../../testing/fixtures.js";

/** Hardhat's first well-known test key (funded on every `hardhat node`). */
const FUNDED_KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";

describe("TransactionSender (a managed account's writes)", function () {
  this.timeout(60_000);
  let live: LiveDeployment;
  let rpc: JsonRpcProvider;
  let sender: TransactionSender;
  const wallet = new Wallet(FUNDED_KEY);
  const to = Wallet.createRandom().address;

  before(async function () {
    live = await sharedLiveDeployment("transaction-sender", { satellite: false });
    rpc = new JsonRpcProvider(live.nodes[0].url, 42161, { staticNetwork: true, cacheTimeout: -1 });
    rpc.pollingInterval = 50;
    const signers = {
      manages: async (address: string) => address === wallet.address,
      signer: async (_address: string, provider: Provider) => wallet.connect(provider),
    };
    sender = new TransactionSender(rpc, 42161, signers, new AccountQueue(), 1_000);
  });

  after(async function () {
    rpc?.destroy();
    await live?.stop();
  });

  describe("send", function () {
    it("answers with the transaction hash when the receipt does not come in time, and the account's queue goes on", async function () {
      await rpc.send("evm_setAutomine", [false]);
      let failure: unknown;
      try {
        await sender.send(wallet.address, async () => [{ description: "ping", to, data: "0x" }]);
      } catch (error) {
        failure = error;
      }
      expect(failure).to.be.instanceOf(ApiError);
      const api = failure as ApiError;
      expect(api.code).to.equal("internal_error");
      expect(api.message).to.match(/ping: transaction 0x[0-9a-f]{64} was sent but not mined within 1 s/);
      const hash = api.details.transaction_hash as string;
      expect(await rpc.getTransaction(hash)).to.not.equal(null); // it was sent, and is pending

      // mined later: the queue was not held, the next write goes through with the next nonce
      await rpc.send("evm_setAutomine", [true]);
      await rpc.send("evm_mine", []);
      expect((await rpc.getTransactionReceipt(hash))?.status).to.equal(1);
      const [receipt] = await sender.send(wallet.address, async () => [{ description: "pong", to, data: "0x" }]);
      expect(receipt.status).to.equal(1);
      expect((await rpc.getTransaction(receipt.hash))!.nonce).to.equal((await rpc.getTransaction(hash))!.nonce + 1);
    });
  });
});
