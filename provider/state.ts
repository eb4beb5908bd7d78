import { existsSync, readFileSync, renameSync, writeFileSync, openSync, fsyncSync, closeSync } from "node:fs";

/** Where the agent is with one redemption (its `status` is what `npm run provider -- status` shows). */
export interface RedemptionRecord {
  /**
   * `waiting_for_key`: the user registered no access key yet (nothing is encrypted blind);
   * `provisioning`: the command is running or being retried; `provisioned`: its output is kept here
   * and the fulfilment is next; `fulfilled`; `failed`: the command failed every attempt (see `error`);
   * `missed`: the deadline passed before it could be fulfilled.
   */
  status: "waiting_for_key" | "provisioning" | "provisioned" | "fulfilled" | "failed" | "missed";
  /** The provisioning command's output (the access details), kept before the fulfilment is sent. */
  details?: Record<string, unknown>;
  attempts?: number;
  error?: string;
  leaseEnd?: number;
  txHash?: string;
  /** The lease's resources were reclaimed (`terminated` or `ended`). */
  deprovisioned?: "terminated" | "ended";
  /** The lease end a renewal was last offered for (one offer per end). */
  offeredForEnd?: number;
  updatedAt: number;
}

export interface AgentState {
  version: 1;
  provider: string;
  redemptions: Record<string, RedemptionRecord>;
}

/**
 * The agent's state file: read whole at start, written whole after each change through a
 * temporary file, fsync and rename, so a crash leaves either the old or the new file, never half
 * of one. One agent per state file (it says whose it is).
 */
export class StateFile {
  private state: AgentState;

  constructor(
    private readonly path: string,
    provider: string,
  ) {
    if (existsSync(path)) {
      const parsed = JSON.parse(readFileSync(path, "utf8")) as AgentState;
      if (parsed.version !== 1 || typeof parsed.redemptions !== "object") {
        throw new Error(`${path} is not a provider agent state file`);
      }
      if (parsed.provider.toLowerCase() !== provider.toLowerCase()) {
        throw new Error(`${path} belongs to provider ${parsed.provider}, not ${provider}`);
      }
      this.state = parsed;
    } else {
      this.state = { version: 1, provider, redemptions: {} };
    }
  }

  static read(path: string): AgentState | undefined {
    return existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as AgentState) : undefined;
  }

  get(id: string): RedemptionRecord | undefined {
    return this.state.redemptions[id];
  }

  all(): Record<string, RedemptionRecord> {
    return this.state.redemptions;
  }

  /** Merges `change` into the record and writes the file before returning. */
  set(id: string, change: Partial<RedemptionRecord>): RedemptionRecord {
    const record = {
      ...this.state.redemptions[id],
      ...change,
      updatedAt: Math.floor(Date.now() / 1000),
    } as RedemptionRecord;
    this.state.redemptions[id] = record;
    const temporary = `${this.path}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(this.state, null, 2)}\n`);
    const fd = openSync(temporary, "r");
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, this.path);
    return record;
  }
}
