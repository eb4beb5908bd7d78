import { createServer } from "node:net";

import { expect } from "chai";

import { LocalNodeError, announcedPort, startLocalNode } from "../../../devnet/local-node.js";
import type { LocalNode } from "../../../devnet/local-node.js";

const ANNOUNCEMENT = "\u001b[32mStarted HTTP and WebSocket JSON-RPC server at http://127.0.0.1:41234/\u001b[39m\n";

describe("Local hardhat nodes (devnet/local-node.ts)", function () {
  this.timeout(120_000);

  describe("announcedPort", function () {
    it("reads the port from the node's coloured announcement", function () {
      expect(announcedPort(`Compiling...\n${ANNOUNCEMENT}\nAccounts\n`)).to.equal(41_234);
    });

    it("is undefined until the announcement's line is complete", function () {
      expect(announcedPort("")).to.equal(undefined);
      expect(announcedPort(ANNOUNCEMENT.slice(0, 60))).to.equal(undefined);
      expect(announcedPort("Started HTTP and WebSocket JSON-RPC server at http://127.0.0.1:412")).to.equal(undefined);
    });
  });

  describe("startLocalNode without a port", function () {
    const started: LocalNode[] = [];
    after(async function () {
      await Promise.all(started.map((node) => node.stop()));
    });

    it("starts nodes side by side on ports the system gave them, each answering with its chain id", async function () {
      const nodes = await Promise.all(
        [31_337n, 42_161n, 137n].map((chainId) => startLocalNode({ chainId, readyTimeoutMs: 60_000 })),
      );
      started.push(...nodes);
      expect(new Set(nodes.map((node) => node.port)).size).to.equal(3);
      for (const node of nodes) {
        expect(node.port).to.be.greaterThan(0);
        expect(node.url).to.equal(`http://127.0.0.1:${node.port}`);
        const response = await fetch(node.url, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
        });
        expect(BigInt(((await response.json()) as { result: string }).result)).to.equal(node.chainId);
      }
    });
  });

  describe("startLocalNode on a fixed port", function () {
    it("fails with the node's own output when the port is taken", async function () {
      const blocker = createServer();
      await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", () => resolve()));
      const { port } = blocker.address() as { port: number };
      try {
        const error = await startLocalNode({ chainId: 31_337n, port, readyTimeoutMs: 60_000 }).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error).to.be.instanceOf(LocalNodeError);
        expect((error as Error).message).to.contain(`hardhat node on port ${port} exited before it was ready`);
        expect((error as Error).message).to.contain("EADDRINUSE");
      } finally {
        blocker.close();
      }
    });
  });
});
