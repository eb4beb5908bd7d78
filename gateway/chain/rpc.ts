import { Agent as HttpAgent } from "node:http";
import { Agent as HttpsAgent } from "node:https";

import { FetchRequest, JsonRpcProvider } from "ethers";
import type { JsonRpcPayload, JsonRpcResult } from "ethers";

import { DEFAULT_RPC_TIMEOUT_MS } from "../config.js";

/** Failures of a transport that nothing was answered on: the connection was closed under the request. */
const RESET = new Set(["ECONNRESET", "EPIPE"]);

export interface ReadProviderOptions {
  /** Called once per failed call, of the transport or answered with a JSON-RPC error (the RPC error metric). */
  onError?: () => void;
  /**
   * A request on whose connection the node sends nothing for this long fails (and its caller retries);
   * its connection is closed.
   */
  timeoutMs?: number;
}

/** A call sent to the node and not yet answered: its JSON-RPC method(s) and its age. */
export interface RpcCallInFlight {
  method: string;
  ms: number;
}

/**
 * A JSON-RPC provider for the gateway's reads of a chain.
 * - A request whose kept-alive connection the node had already closed (a race that widens while the
 *   event loop is busy: the close is read after the request is written) is sent once more on a new one.
 * - A request on which the node sends nothing for `timeoutMs` fails, rather than holding its caller
 *   (an indexer's step, a stop waiting for that step) for ethers' default five minutes, and its
 *   connection is closed (Node only tells the request; ethers does not close it either). The bound
 *   also caps ethers' back-off on a node's 429 answers.
 * - Every failed call is counted through `onError`; the calls in flight can be listed (a stalled
 *   shutdown's log names them) and aborted (a stop need not wait for the node's answers).
 */
export function readProvider(rpcUrl: string, chainId: number, options: ReadProviderOptions = {}): ReadProvider {
  return new ReadProvider(rpcUrl, chainId, options);
}

export class ReadProvider extends JsonRpcProvider {
  readonly #agent: HttpAgent;
  readonly #onError: () => void;
  readonly #calls = new Map<number, { method: string; since: number }>();
  /** Read by the transport, which is made before `this` exists. */
  readonly #state: { aborted: boolean };
  #nextCall = 0;

  constructor(rpcUrl: string, chainId: number, options: ReadProviderOptions = {}) {
    const connection = new FetchRequest(rpcUrl);
    connection.timeout = options.timeoutMs ?? DEFAULT_RPC_TIMEOUT_MS;
    // its own connections, so that aborting this provider's calls closes only them; an idle one is
    // closed after 4 s, before the 5 s a Node server (a hardhat node among them) keeps it, so that the
    // close is usually the client's (as Node's global agent does, with 5 s)
    const keepAlive = { keepAlive: true, timeout: 4_000 };
    const https = new URL(rpcUrl).protocol === "https:";
    const agent = closingOnTimeout(https ? new HttpsAgent(keepAlive) : new HttpAgent(keepAlive));
    const send = FetchRequest.createGetUrlFunc({ agent });
    const state = { aborted: false };
    connection.getUrlFunc = async (request, signal) => {
      if (state.aborted) throw new Error("the calls to the node were aborted (the reader is stopping)");
      try {
        return await send(request, signal);
      } catch (error) {
        // (not when its connection was closed by `abort`)
        if (state.aborted || !RESET.has((error as NodeJS.ErrnoException).code ?? "")) throw error;
        return send(request, signal);
      }
    };
    super(connection, chainId, { staticNetwork: true, cacheTimeout: -1 });
    this.#agent = agent;
    this.#state = state;
    this.#onError = options.onError ?? (() => {});
  }

  override async _send(payload: JsonRpcPayload | JsonRpcPayload[]): Promise<JsonRpcResult[]> {
    const id = this.#nextCall++;
    const method = Array.isArray(payload) ? payload.map((p) => p.method).join(",") : payload.method;
    this.#calls.set(id, { method, since: Date.now() });
    try {
      const results = await super._send(payload);
      for (const result of results) if ("error" in result && result.error !== undefined) this.#onError();
      return results;
    } catch (error) {
      this.#onError();
      throw error;
    } finally {
      this.#calls.delete(id);
    }
  }

  /** The calls sent and not yet answered, oldest first. */
  inFlight(now = Date.now()): RpcCallInFlight[] {
    return [...this.#calls.values()].map(({ method, since }) => ({ method, ms: now - since }));
  }

  /**
   * Fails the calls in flight at once (their connections are closed) and every later call without
   * sending it: a stop's reads end now, including those a step would make after its next database read.
   */
  abort(): void {
    this.#state.aborted = true;
    this.#agent.destroy();
  }

  override destroy(): void {
    this.abort();
    super.destroy();
  }
}

/**
 * The agent, its connections closed when they time out: idle in the pool (the agent's `timeout`, as
 * Node does) or idle under a request (the request's, where Node only tells the request and the
 * connection would stay open until the node answered or closed it, one more for each retry).
 */
function closingOnTimeout<A extends HttpAgent>(agent: A): A {
  const create = agent.createConnection.bind(agent);
  agent.createConnection = (options, callback) => {
    const connection = create(options, callback);
    connection?.on("timeout", () => connection.destroy());
    return connection;
  };
  return agent;
}
