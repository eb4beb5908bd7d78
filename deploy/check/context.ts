import { Interface, ZeroAddress, getAddress } from "ethers";
import type { Result } from "ethers";

import type { AbiItem, BuildReader, BuiltArtifact } from "./build.js";
import type { ChainUnderCheck, DeployedContract } from "./load.js";

/** A contract of the chain with its interface, ready to be read. */
export interface ReadableContract extends DeployedContract {
  artifact: BuiltArtifact;
  iface: Interface;
}

/**
 * A chain as the checks read it: its contracts with their interfaces, the names of every address
 * the deployment knows (for the report), and what governs it (the timelock on the primary chain,
 * the satellite executor elsewhere).
 */
export class ChainContext {
  /** Every contract of the record (their code is checked). */
  readonly contracts: ReadableContract[];
  /**
   * The contracts that hold state: all but the implementations behind proxies (locked, read
   * through their proxies). Roles, parameters, wiring and governance are read on these.
   */
  readonly stateful: ReadableContract[];
  /** Lower-case address -> what it is (`ProtocolTimelock`, `treasury 0x…`, …). */
  private readonly labels = new Map<string, string>();

  private constructor(
    readonly chain: ChainUnderCheck,
    contracts: ReadableContract[],
    readonly governance: string | undefined,
  ) {
    this.contracts = contracts;
    const proxied = new Set(
      contracts.filter((c) => c.code.endsWith(":ERC1967Proxy")).map((c) => `${c.name}Implementation`),
    );
    this.stateful = contracts.filter((c) => !proxied.has(c.name));
    for (const c of contracts) this.labels.set(c.address.toLowerCase(), c.name);
    for (const [field, value] of Object.entries(chain.parameters)) {
      for (const account of [value].flat()) {
        if (typeof account === "string" && /^0x[0-9a-fA-F]{40}$/.test(account)) {
          const key = account.toLowerCase();
          if (!this.labels.has(key)) this.labels.set(key, `${field} ${getAddress(account)}`);
        }
      }
    }
    for (const [name, account] of Object.entries(chain.knownAccounts ?? {})) {
      this.labels.set(account.toLowerCase(), `${name} ${getAddress(account)}`);
    }
    for (const deployer of chain.deployers) this.labels.set(deployer.toLowerCase(), `the deployer ${deployer}`);
    this.labels.set(ZeroAddress, "the zero address");
  }

  static async create(chain: ChainUnderCheck, build: BuildReader): Promise<ChainContext> {
    const contracts = await Promise.all(
      chain.contracts.map(async (c) => {
        const artifact = await build.artifact(c.abi);
        return { ...c, artifact, iface: new Interface(artifact.abi as never) };
      }),
    );
    const governanceName = chain.role === "primary" ? "ProtocolTimelock" : "SatelliteExecutor";
    const governance = contracts.find((c) => c.name === governanceName)?.address;
    return new ChainContext(chain, contracts, governance);
  }

  get name(): string {
    return this.chain.chain;
  }

  /** What an address is, for the report. */
  label(address: string): string {
    return this.labels.get(address.toLowerCase()) ?? `an unknown account ${getAddress(address)}`;
  }

  /** Whether the deployment knows the address (a contract of it, an account of its parameters, …). */
  knows(address: string): boolean {
    return this.labels.has(address.toLowerCase()) && !this.isDeployer(address);
  }

  isDeployer(address: string): boolean {
    return this.chain.deployers.some((d) => d.toLowerCase() === address.toLowerCase());
  }

  byName(name: string): ReadableContract | undefined {
    return this.contracts.find((c) => c.name === name);
  }

  /** Stateful contracts whose interface has a view function `name` taking `inputs` (types). */
  having(name: string, inputs: readonly string[] = []): ReadableContract[] {
    return this.stateful.filter((c) => viewFunction(c.artifact.abi, name, inputs) !== undefined);
  }

  /** Calls a view function by signature (`routeOf(uint64)`) and decodes its result. */
  async read(contract: ReadableContract, signature: string, args: readonly unknown[] = []): Promise<Result> {
    const data = contract.iface.encodeFunctionData(signature, args);
    const raw = await this.chain.provider.call({ to: contract.address, data });
    return contract.iface.decodeFunctionResult(signature, raw);
  }
}

/** The view (or pure) function `name` with exactly these input types, if the ABI has it. */
export function viewFunction(abi: readonly AbiItem[], name: string, inputs: readonly string[]): AbiItem | undefined {
  return abi.find(
    (item) =>
      item.type === "function" &&
      item.name === name &&
      (item.stateMutability === "view" || item.stateMutability === "pure") &&
      (item.inputs ?? []).length === inputs.length &&
      (item.inputs ?? []).every((input, i) => input.type === inputs[i]),
  );
}
