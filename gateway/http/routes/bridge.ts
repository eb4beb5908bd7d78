import { ZeroAddress } from "ethers";
import type { FastifyInstance } from "fastify";

import type { DeployedChain } from "@compute-capacity/sdk";
import { QuoteInputError } from "../../chain/bridge-reader.js";
import type { BridgeReader } from "../../chain/bridge-reader.js";
import { chainOfSelector } from "../../indexer/modules/bridge.js";
import type { ReadModel } from "../../store/queries.js";
import { amountOf } from "../../api/amounts.js";
import { invalidParameter, notFound } from "../../api/errors.js";
import * as format from "../../api/format.js";
import * as s from "../../api/schemas.js";
import { list, ok } from "./replies.js";
import type { Paging } from "./replies.js";

export interface BridgeRouteOptions {
  model: ReadModel;
  chains: readonly DeployedChain[];
  /** Display names of chains by deployment name. */
  chainLabels: Record<string, string>;
  /** Live reads of the bridges: fee quotes, queued deliveries. */
  bridges: Pick<BridgeReader, "quote" | "queue">;
}

/** The bridge token a receipt names (the index keeps its symbol). */
const bridgeTokenOf = (receipt: { tokenSymbol: string }): "sSTB" | "STBGOV" =>
  receipt.tokenSymbol === "STBGOV" ? "STBGOV" : "sSTB";

/**
 * The bridge: the deployment's chains and their bridge contracts, the fees of a transfer (read
 * live from the source chain's bridge), and a transfer by its CCIP message id as both chains'
 * indexers saw it. Every route answers the same to every key: cacheable.
 */
export async function bridgeRoutes(app: FastifyInstance, options: BridgeRouteOptions): Promise<void> {
  const { model } = options;
  const config = { cache: true };

  // the deployment's chains (a list like every other: total, page, limit)
  app.get(
    "/bridge/chains",
    {
      schema: {
        tags: ["bridge"],
        summary: "Chains of the deployment and their bridge contracts",
        description: "Every chain the deployment spans, the primary first, with its bridge contract and status.",
        querystring: s.query({ ...s.paging }),
        response: { 200: s.listEnvelope("chains", s.BridgeChain, "The deployment's chains"), ...s.errors },
      },
      config,
    },
    async (request) => {
      const q = request.query as Paging;
      const chains = options.chains.map((c) => ({
        chain_id: c.chain,
        name: options.chainLabels[c.chain] ?? c.chain,
        native_chain_id: c.chainId ?? 0,
        is_evm_compatible: true,
        bridge_address: c.contracts.Bridge ?? ZeroAddress,
        status: c.contracts.Bridge === undefined ? "unavailable" : "active",
      }));
      return list("chains", chains.slice((q.page - 1) * q.limit, q.page * q.limit), chains.length, q);
    },
  );

  // a chain's name from its id or its CCIP selector (a chain outside the deployment keeps its number)
  const chainOf = ({ chainId, selector }: { chainId?: number; selector?: string }) =>
    chainId === undefined
      ? chainOfSelector(selector!)
      : (options.chains.find((c) => c.chainId === chainId)?.chain ?? `chain-${chainId}`);

  app.get(
    "/bridge/fees",
    {
      schema: {
        tags: ["bridge"],
        summary: "The fees of a transfer, every fee option (live from the source chain's bridge)",
        description:
          "What sending `amount` tokens from one chain to another costs under each fee option (stablecoin, sSTB " +
          "with a discount, STBGOV with a discount), plus CCIP's transport fee; read live, not indexed. Give the " +
          "amount as `amount` (whole tokens) or exactly as `amount_base_units`.",
        querystring: {
          ...s.query({
            source_chain: {
              type: "string",
              minLength: 1,
              maxLength: 40,
              description: "the chain to send from (as /bridge/chains names it)",
            },
            destination_chain: { type: "string", minLength: 1, maxLength: 40, description: "the chain to send to" },
            amount: {
              type: "number",
              exclusiveMinimum: 0,
              maximum: 7.9e10,
              description: "whole tokens to send (or amount_base_units)",
            },
            amount_base_units: {
              type: "string",
              pattern: "^[0-9]{1,78}$",
              description: "tokens to send, exactly: base units (18 decimals), a decimal string",
            },
            token: { type: "string", enum: ["sSTB", "STBGOV"], default: "sSTB", description: "the token to send" },
          }),
          required: ["source_chain", "destination_chain"],
        },
        response: { 200: s.envelope(s.BridgeFeeQuote, "The fee quote"), ...s.errors },
      },
      config,
    },
    async (request) => {
      const q = request.query as {
        source_chain: string;
        destination_chain: string;
        amount?: number;
        amount_base_units?: string;
        token: "sSTB" | "STBGOV";
      };
      const amount = amountOf(q, "amount");
      try {
        return ok(await options.bridges.quote(q.source_chain, q.destination_chain, q.token, amount));
      } catch (error) {
        if (error instanceof QuoteInputError) throw invalidParameter(error.parameter, error.message);
        throw error;
      }
    },
  );

  app.get(
    "/bridge/status/:message_id",
    {
      schema: {
        tags: ["bridge"],
        summary: "A bridge transfer by CCIP message id (32-byte hex, or the same number in decimal)",
        description:
          "A transfer as both chains' indexers have seen it: `pending` once sent, `queued` when it arrived but " +
          "waits, `completed` once delivered. Fields only the other side knows are null until it is indexed. A " +
          "queued transfer's `queue` says, live from its destination, what it waits for and when it can complete.",
        params: s.params({
          message_id: {
            type: "string",
            pattern: "^(0x[0-9a-fA-F]{64}|[0-9]{1,78})$",
            description: "the CCIP message id: 32 bytes in hex, or the same number in decimal",
          },
        }),
        response: { 200: s.envelope(s.BridgeTransaction, "The bridge transfer"), ...s.errors },
      },
      config,
    },
    async (request) => {
      const { message_id: raw } = request.params as { message_id: string };
      let id = raw.toLowerCase();
      if (!id.startsWith("0x")) {
        const value = BigInt(raw);
        if (value >= 1n << 256n) throw invalidParameter("message_id", "is larger than 32 bytes");
        id = "0x" + value.toString(16).padStart(64, "0");
      }
      const message = await model.bridgeMessage(id);
      if (message === undefined) throw notFound("bridge message", raw);
      const receipt = message.receipt;
      if (receipt?.status !== "queued") return ok(format.bridgeTransaction(message, chainOf, null));
      // a queued delivery: what waits before it from the index, the rest live from its destination; an
      // answer without it (null) rather than none when the destination's node does not answer
      let queue: Awaited<ReturnType<BridgeRouteOptions["bridges"]["queue"]>> = null;
      try {
        queue = await options.bridges.queue(
          chainOf({ chainId: receipt.chainId }),
          { messageId: receipt.messageId, sourceSelector: receipt.sourceSelector, token: bridgeTokenOf(receipt) },
          await model.queuedBefore(receipt),
        );
      } catch (error) {
        request.log.warn({ err: error, messageId: receipt.messageId }, "queued delivery not read from its chain");
      }
      return ok(format.bridgeTransaction(message, chainOf, queue));
    },
  );
}
