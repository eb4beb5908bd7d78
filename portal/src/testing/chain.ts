import { HttpResponse, http } from "msw";
import type { HttpHandler } from "msw";
import { Interface, toBeHex } from "ethers";
import type { InterfaceAbi } from "ethers";

/** The JSON-RPC endpoint the tests' wallet forwards to (answered by MSW, never a network). */
export const RPC = "http://rpc.test/";

/** A JSON-RPC method's answer; throw `{ code, message, data }` for a JSON-RPC error. */
export type RpcMethod = (params: unknown[]) => unknown;

interface RpcRequest {
  id: number | string;
  method: string;
  params?: unknown[];
}

/**
 * The chain as the tests' wallet sees it: the methods given answer, any other is refused with
 * -32601 (so a page asking for something the test did not expect fails loudly). Every method asked
 * is kept in `seen`, in order.
 */
export function jsonRpc(methods: Record<string, RpcMethod>, seen: string[] = []): HttpHandler {
  const answer = async (call: RpcRequest) => {
    seen.push(call.method);
    const method = methods[call.method];
    if (method === undefined) {
      return { jsonrpc: "2.0", id: call.id, error: { code: -32601, message: `${call.method} is not answered here` } };
    }
    try {
      return { jsonrpc: "2.0", id: call.id, result: await method(call.params ?? []) };
    } catch (error) {
      const e = error as { code?: number; message?: string; data?: unknown };
      return {
        jsonrpc: "2.0",
        id: call.id,
        error: { code: e.code ?? -32603, message: e.message ?? String(error), data: e.data },
      };
    }
  };
  return http.post(RPC, async ({ request }) => {
    const body = (await request.json()) as RpcRequest | RpcRequest[];
    return HttpResponse.json(Array.isArray(body) ? await Promise.all(body.map(answer)) : await answer(body));
  });
}

/** A latest block at chain time `timestamp` (what `getBlock("latest")` reads). */
export function block(timestamp: number, number = 100) {
  return {
    number: toBeHex(number),
    hash: toBeHex(number, 32),
    parentHash: toBeHex(number - 1, 32),
    timestamp: toBeHex(timestamp),
    nonce: "0x0000000000000000",
    difficulty: "0x0",
    gasLimit: toBeHex(30_000_000),
    gasUsed: "0x0",
    miner: toBeHex(0, 20),
    extraData: "0x",
    baseFeePerGas: "0x1",
    transactions: [],
  };
}

/**
 * `eth_call` answered per function of a contract's ABI: the call's selector picks the function,
 * whose results are ABI-encoded. A call no function here matches is refused.
 */
export function ethCall(
  contracts: Array<{ abi: InterfaceAbi; answers: Record<string, (args: readonly unknown[]) => readonly unknown[]> }>,
): RpcMethod {
  const table = contracts.map(({ abi, answers }) => ({ iface: new Interface(abi), answers }));
  return (params) => {
    const { data } = params[0] as { to: string; data: string };
    for (const { iface, answers } of table) {
      let fragment: { name: string } | undefined;
      iface.forEachFunction((f) => {
        if (data.startsWith(f.selector)) fragment = f;
      });
      if (fragment === undefined || answers[fragment.name] === undefined) continue;
      const args = iface.decodeFunctionData(fragment.name, data);
      return iface.encodeFunctionResult(fragment.name, answers[fragment.name](args));
    }
    throw { code: -32601, message: `no answer for the call ${data.slice(0, 10)}` };
  };
}
