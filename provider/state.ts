import {
  closeSync,
  existsSync,
  fsyncSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from "node:fs";

/** Where the agent is with one redemption (its `status` is what `npm run provider -- status` shows). */
export interface RedemptionRecord {
  /**
   * `waiting_for_key`: the user registered no access key yet (nothing is encrypted blind);
   * `provisioning`: the command is running or being retried; `provisioned`: its output is kept here
   * and the fulfilment is next; `fulfilled`; `failed`: the command failed every attempt (see `error`)
   * and the redemption waits for the provider's decision (`retry` or `abandon`); `retry`: the
   * provider asked for another round of attempts, which the agent starts at its next pass;
   * `abandoned`: the provider gave it up, the agent leaves it alone; `missed`: the deadline passed
   * before it could be fulfilled.
   */
  status:
    "waiting_for_key" | "provisioning" | "provisioned" | "fulfilled" | "failed" | "retry" | "abandoned" | "missed";
  /** The provisioning command's output (the access details), kept before the fulfilment is sent. */
  details?: Record<string, unknown>;
  attempts?: number;
  error?: string;
  /** How many times the provider asked for a retry (`npm run provider -- retry <id>`). */
  retries?: number;
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

/** The statuses that wait for the provider's decision: `status` lists them, `retry` and `abandon` act on them. */
export const NEEDS_DECISION: ReadonlyArray<RedemptionRecord["status"]> = ["failed"];

/** Another process (a `retry` or `abandon` command) changed the record since the agent read it: the agent's change was not written. */
export class RecordChangedError extends Error {
  override name = "RecordChangedError";
  constructor(
    readonly id: string,
    readonly status: RedemptionRecord["status"] | undefined,
  ) {
    super(`redemption ${id} was changed by a command while the agent worked on it (now ${status ?? "unknown"})`);
  }
}

/**
 * The agent's state file, shared by the running agent and the `retry` and `abandon` commands:
 *
 * - every write goes through a temporary file, fsync and rename, so a reader (`status`, a crash)
 *   sees either the old or the new file, never half of one;
 * - every write is a read-modify-write of one record under a lock file (`<file>.lock`, created
 *   exclusively, holding the writer's pid; a lock whose process is gone is broken), so two writers
 *   never lose each other's records;
 * - the agent re-reads the file at each pass ({@link reload}) and writes a record only if its
 *   status on disk is still what the agent last saw of it ({@link set}): a decision a command wrote
 *   meanwhile is never overwritten, the agent's change is dropped instead ({@link RecordChangedError}).
 *
 * One agent per state file (it says whose it is).
 */
export class StateFile {
  private state: AgentState;

  constructor(
    private readonly path: string,
    private readonly provider: string,
  ) {
    this.state = StateFile.read(path) ?? { version: 1, provider, redemptions: {} };
    this.checkOwner(this.state);
  }

  /** Reads a state file (undefined if there is none), refusing a file that is not one. */
  static read(path: string): AgentState | undefined {
    if (!existsSync(path)) return undefined;
    const parsed = JSON.parse(readFileSync(path, "utf8")) as AgentState;
    if (parsed.version !== 1 || typeof parsed.redemptions !== "object" || typeof parsed.provider !== "string") {
      throw new Error(`${path} is not a provider agent state file`);
    }
    return parsed;
  }

  /**
   * Changes one record of a state file under its lock, whoever runs (the agent or not): `change`
   * gets the record as it is on disk and returns the new one (or throws to refuse). Returns the
   * record written.
   */
  static update(
    path: string,
    id: string,
    change: (record: RedemptionRecord | undefined, state: AgentState) => RedemptionRecord,
  ): RedemptionRecord {
    return withLock(path, () => {
      const state = StateFile.read(path);
      if (state === undefined) throw new Error(`no state file at ${path}`);
      const record = { ...change(state.redemptions[id], state), updatedAt: Math.floor(Date.now() / 1000) };
      state.redemptions[id] = record;
      writeAtomically(path, state);
      return record;
    });
  }

  /** Reads the file again: what commands changed since the last read becomes what the agent works from. */
  reload(): void {
    const fresh = StateFile.read(this.path);
    if (fresh === undefined) return;
    this.checkOwner(fresh);
    this.state = fresh;
  }

  get(id: string): RedemptionRecord | undefined {
    return this.state.redemptions[id];
  }

  all(): Record<string, RedemptionRecord> {
    return this.state.redemptions;
  }

  /**
   * Merges `change` into the record and writes the file before returning, unless another process
   * changed the record's status since this agent last read it (at {@link reload} or its own last
   * write of it): then nothing is written, the agent's view of that record becomes what is on disk,
   * and {@link RecordChangedError} is thrown. Other records are written back as they are on disk.
   */
  set(id: string, change: Partial<RedemptionRecord>): RedemptionRecord {
    return withLock(this.path, () => {
      const fresh = StateFile.read(this.path) ?? { version: 1 as const, provider: this.provider, redemptions: {} };
      const current = fresh.redemptions[id];
      if (current?.status !== this.state.redemptions[id]?.status) {
        if (current === undefined) delete this.state.redemptions[id];
        else this.state.redemptions[id] = current;
        throw new RecordChangedError(id, current?.status);
      }
      const record = { ...current, ...change, updatedAt: Math.floor(Date.now() / 1000) } as RedemptionRecord;
      fresh.redemptions[id] = record;
      writeAtomically(this.path, fresh);
      this.state.redemptions[id] = record;
      return record;
    });
  }

  private checkOwner(state: AgentState): void {
    if (state.provider.toLowerCase() !== this.provider.toLowerCase()) {
      throw new Error(`${this.path} belongs to provider ${state.provider}, not ${this.provider}`);
    }
  }
}

/** Writes the whole state through a temporary file, fsync and rename. */
function writeAtomically(path: string, state: AgentState): void {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(state, null, 2)}\n`);
  const fd = openSync(temporary, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, path);
}

/** How long a writer waits for another's lock before giving up (a write holds it for milliseconds). */
export const LOCK_TIMEOUT_MS = 10_000;

/**
 * Runs `action` holding `<path>.lock`, created exclusively with this process's pid in it. A lock
 * whose process no longer runs (a writer killed mid-write) is broken. Two writers that find the
 * same dead lock at the same instant could both break it; the lock is held for milliseconds and
 * only a crash leaves one behind, so that needs a crash and two writers within the same moment.
 */
export function withLock<T>(path: string, action: () => T, timeoutMs = LOCK_TIMEOUT_MS): T {
  const lock = `${path}.lock`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let fd: number | undefined;
    try {
      fd = openSync(lock, "wx");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    if (fd !== undefined) {
      try {
        writeSync(fd, String(process.pid));
      } finally {
        closeSync(fd);
      }
      break;
    }
    const holder = lockHolder(lock);
    if (holder !== undefined && !isAlive(holder)) {
      if (lockHolder(lock) === holder) rmSync(lock, { force: true }); // still the dead one's: break it
      continue;
    }
    if (holder === undefined && ageMs(lock) > EMPTY_LOCK_MS) {
      rmSync(lock, { force: true }); // created by a writer that died before it wrote its pid
      continue;
    }
    if (Date.now() > deadline) {
      throw new Error(`${path} is locked by process ${holder ?? "?"} (${lock}); is it stuck?`);
    }
    sleep(10);
  }
  try {
    return action();
  } finally {
    rmSync(lock, { force: true });
  }
}

/** A lock without a pid this old was left by a writer that died between creating and writing it. */
const EMPTY_LOCK_MS = 5_000;

function ageMs(file: string): number {
  try {
    return Date.now() - statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

function lockHolder(lock: string): number | undefined {
  try {
    const pid = Number(readFileSync(lock, "utf8"));
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined; // gone, or being written: look again
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));
function sleep(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}
