import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";

import type { SolidityHooks } from "hardhat/types/hooks";

/** The parts of a Hardhat 3 artifact this pass reads and writes. */
interface Artifact {
  _format?: string;
  contractName?: string;
  inputSourceName?: string;
  buildInfoId?: string;
  ast?: unknown;
  metadata?: unknown;
}

/** The parts of a build-info output file (`<id>.output.json`) this pass reads. */
interface BuildInfoOutput {
  output?: {
    sources?: Record<string, { ast?: unknown } | undefined>;
    contracts?: Record<string, Record<string, { metadata?: string } | undefined> | undefined>;
  };
}

/**
 * Adds to each Hardhat 3 artifact of `artifactPaths` that has none the AST of its source file and,
 * when it has none, its parsed metadata, from `buildInfoDir/<buildInfoId>.output.json`, and writes it
 * back as `@openzeppelin/hardhat-upgrades` 4.1 does (`JSON.stringify(artifact, null, 2)`): the same
 * bytes, each build-info output read and parsed once. An artifact this pass cannot complete (its
 * build-info output missing, or no AST for its source) is left as it was, for that plugin's own pass,
 * which reports it. Returns the paths of the artifacts written.
 */
export async function injectAstIntoArtifacts(
  artifactPaths: readonly string[],
  buildInfoDir: string,
): Promise<string[]> {
  const outputs = new Map<string, BuildInfoOutput | undefined>();
  // a build-info output that cannot be read or parsed counts as missing (the upgrades plugin reports it)
  const outputOf = async (buildInfoId: string) => {
    if (!outputs.has(buildInfoId)) {
      const file = path.join(buildInfoDir, `${buildInfoId}.output.json`);
      outputs.set(
        buildInfoId,
        await readFile(file, "utf8")
          .then((text) => JSON.parse(text) as BuildInfoOutput)
          .catch(() => undefined),
      );
    }
    return outputs.get(buildInfoId);
  };
  const written: string[] = [];
  for (const artifactPath of artifactPaths) {
    if (!artifactPath.endsWith(".json")) continue;
    try {
      if (await inject(artifactPath, outputOf)) written.push(artifactPath);
    } catch {
      // unreadable: left for the upgrades plugin's pass, which reports it without failing the build
    }
  }
  return written;
}

/** Completes one artifact; whether it was written. */
async function inject(
  artifactPath: string,
  outputOf: (buildInfoId: string) => Promise<BuildInfoOutput | undefined>,
): Promise<boolean> {
  const artifact = JSON.parse(await readFile(artifactPath, "utf8")) as Artifact;
  const { buildInfoId, inputSourceName, contractName } = artifact;
  if (artifact._format !== "hh3-artifact-1" || !buildInfoId || !inputSourceName || artifact.ast) return false;
  const output = (await outputOf(buildInfoId))?.output;
  const ast = output?.sources?.[inputSourceName]?.ast;
  if (!ast) return false;
  artifact.ast = ast;
  const metadata =
    contractName === undefined ? undefined : output?.contracts?.[inputSourceName]?.[contractName]?.metadata;
  if (!artifact.metadata && metadata) {
    try {
      artifact.metadata = JSON.parse(metadata) as unknown;
    } catch {
      artifact.metadata = metadata;
    }
  }
  await writeFile(artifactPath, JSON.stringify(artifact, null, 2), "utf8");
  return true;
}

export default async (): Promise<Partial<SolidityHooks>> => ({
  async processArtifactsAfterSuccessfulBuild(context, artifactPaths) {
    await injectAstIntoArtifacts(artifactPaths, path.join(context.config.paths.artifacts, "build-info"));
  },
});
