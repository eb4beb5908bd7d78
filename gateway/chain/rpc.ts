import { FetchRequest, JsonRpcProvider } from "ethers";
import type { JsonRpcPayload, JsonRpcResult } from "ethers";

/** Failures of a transport that nothing was answered on: the connection was closed under the request. */
const RESET = new Set(["ECONNRESET", "EPIPE"]);

/**
 * A JSON-RPC provider for the gateway's reads of a chain: a request whose kept-alive connection the
 * node had already closed (a race that widens while the event loop is busy: the close is read after
 * the request is written) is sent once more on a new one, and every failed call, of the transport
 * or answered with a JSON-RPC error, is counted through `onError` (the RPC error metric).
 */
export function readProvider(rpcUrl: string, chainId: number, onError: () => void = () => {}): JsonRpcProvider {
  const connection = new FetchRequest(rpcUrl);
  const send = FetchRequest.createGetUrlFunc();
  connection.getUrlFunc = async (request, signal) => {
    try {
      return await send(request, signal);
    } catch (error) {
      if (!RESET.has((error as NodeJS.ErrnoException).code ?? "")) throw error;
      return send(request, signal);
    }
  };
  return new CountingProvider(connection, chainId, onError);
}

class CountingProvider extends JsonRpcProvider {
  constructor(
    connection: FetchRequest,
    chainId: number,
    private readonly onError: () => void,
  ) {
    super(connection, chainId, { staticNetwork: true, cacheTimeout: -1 });
  }

  override async _send(payload: JsonRpcPayload | JsonRpcPayload[]): Promise<JsonRpcResult[]> {
    try {
      const results = await super._send(payload);
      for (const result of results) if ("error" in result && result.error !== undefined) this.onError();
      return results;
    } catch (error) {
      this.onError();
      throw error;
    }
  }
}
