/** The parts of the post-deployment check, in the order the report prints them. */
export const SECTIONS = ["record", "code", "proxies", "roles", "wiring", "parameters", "routes", "governance"] as const;
export type Section = (typeof SECTIONS)[number];

/** One check: what was checked on which chain, and whether it holds (with what was found when not). */
export interface CheckLine {
  chain: string;
  section: Section;
  ok: boolean;
  /** What holds, or what is wrong, in a sentence that names the contract, the role or the parameter. */
  message: string;
}

/** The check's result over every chain of a deployment. */
export interface CheckReport {
  /** What was checked (`mainnet`, recorded as `…`). */
  title: string;
  /** Per chain, one summary line (chain id, deployer, contracts). */
  chains: Array<{ chain: string; summary: string }>;
  lines: CheckLine[];
  failures: CheckLine[];
  ok: boolean;
}

/** Collects check lines for one chain and section at a time. */
export class Checks {
  readonly lines: CheckLine[] = [];

  /** Records `ok` with `message` (a failure when `ok` is false). */
  add(chain: string, section: Section, ok: boolean, message: string): void {
    this.lines.push({ chain, section, ok, message });
  }

  pass(chain: string, section: Section, message: string): void {
    this.add(chain, section, true, message);
  }

  fail(chain: string, section: Section, message: string): void {
    this.add(chain, section, false, message);
  }

  /**
   * Runs `run` for every item at once, each with a collector of its own, then appends their lines
   * in the items' order: the reads overlap, the report reads the same every time.
   */
  async each<T>(items: readonly T[], run: (checks: Checks, item: T) => Promise<void>): Promise<void> {
    const collectors = items.map(() => new Checks());
    await Promise.all(items.map((item, i) => run(collectors[i], item)));
    for (const collector of collectors) this.lines.push(...collector.lines);
  }

  /** Runs `read` and records a failure naming `what` if it throws (an unreadable chain is a failure, not a crash). */
  async guard(chain: string, section: Section, what: string, read: () => Promise<void>): Promise<void> {
    try {
      await read();
    } catch (error) {
      this.fail(chain, section, `${what}: could not be read (${shortError(error)})`);
    }
  }
}

/** The report: one line per check (`ok` or `FAIL`), by chain and section, then the failures again and a verdict. */
export function formatReport(report: CheckReport): string[] {
  const out = [`Post-deployment check: ${report.title}`];
  for (const { chain, summary } of report.chains) {
    out.push("", `${chain}: ${summary}`);
    for (const section of SECTIONS) {
      for (const line of report.lines.filter((l) => l.chain === chain && l.section === section)) {
        out.push(`  ${line.ok ? "ok  " : "FAIL"}  ${section.padEnd(10)}  ${line.message}`);
      }
    }
  }
  const crossChain = report.lines.filter((l) => !report.chains.some((c) => c.chain === l.chain));
  if (crossChain.length > 0) {
    out.push("", "across chains:");
    for (const line of crossChain)
      out.push(`  ${line.ok ? "ok  " : "FAIL"}  ${line.section.padEnd(10)}  ${line.message}`);
  }
  out.push("");
  if (report.ok) {
    out.push(`PASSED: ${report.lines.length} checks, none failed.`);
  } else {
    out.push(`FAILED: ${report.failures.length} of ${report.lines.length} checks failed:`);
    for (const f of report.failures) out.push(`  FAIL  ${f.chain}  ${f.section}  ${f.message}`);
  }
  return out;
}

/** An error's first line, without ethers' long call data. */
export function shortError(error: unknown): string {
  const e = error as { shortMessage?: string; message?: string };
  return (e.shortMessage ?? e.message ?? String(error)).split("\n")[0].slice(0, 200);
}
