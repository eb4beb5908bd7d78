import { readFile } from "node:fs/promises";

import type { ArtifactManager } from "hardhat/types/artifacts";

/** What the check reads from this commit's build: the artifacts, and their sources' syntax trees. */
export interface BuildReader {
  artifact(fullyQualifiedName: string): Promise<BuiltArtifact>;
  /**
   * The highest initializer version a contract's code (its own and its bases') can bring a proxy
   * to, from the syntax tree: the largest `reinitializer(n)`, 1 for `initializer` alone, undefined
   * for a contract with neither.
   */
  highestInitializer(fullyQualifiedName: string): Promise<number | undefined>;
}

/** The artifact fields the check uses. */
export interface BuiltArtifact {
  contractName: string;
  sourceName: string;
  abi: readonly AbiItem[];
  deployedBytecode: string;
  immutableReferences?: Record<string, ReadonlyArray<{ start: number; length: number }>>;
  deployedLinkReferences?: Record<string, Record<string, ReadonlyArray<{ start: number; length: number }>>>;
  inputSourceName?: string;
  buildInfoId?: string;
}

/** An ABI entry (the parts the check reads). */
export interface AbiItem {
  type: string;
  name?: string;
  inputs?: ReadonlyArray<{ type: string; name?: string }>;
  outputs?: ReadonlyArray<{ type: string; name?: string }>;
  stateMutability?: string;
}

interface AstNode {
  id?: number;
  nodeType: string;
  name?: string;
  nodes?: AstNode[];
  linearizedBaseContracts?: number[];
  modifiers?: Array<{ modifierName: { name: string }; arguments?: AstNode[] | null }>;
  value?: AstNode | string | null;
  referencedDeclaration?: number;
  constant?: boolean;
  kind?: string;
}

/** The build of this commit through Hardhat's artifacts (`hre.artifacts`). */
export function buildReader(artifacts: ArtifactManager): BuildReader {
  const outputs = new Map<string, Promise<{ sources: Record<string, { ast: AstNode }>; byId: Map<number, AstNode> }>>();
  const declarations = (buildInfoId: string) => {
    let found = outputs.get(buildInfoId);
    if (found === undefined) {
      found = (async () => {
        const file = await artifacts.getBuildInfoOutputPath(buildInfoId);
        if (file === undefined) throw new Error(`build info ${buildInfoId} is missing: run npm run build`);
        const output = JSON.parse(await readFile(file, "utf8")) as {
          output: { sources: Record<string, { ast: AstNode }> };
        };
        // every contract and constant of the build, by node id
        const byId = new Map<number, AstNode>();
        const visit = (node: AstNode) => {
          if (
            node.id !== undefined &&
            (node.nodeType === "ContractDefinition" || node.nodeType === "VariableDeclaration")
          ) {
            byId.set(node.id, node);
          }
          for (const child of node.nodes ?? []) visit(child);
        };
        for (const source of Object.values(output.output.sources)) visit(source.ast);
        return { sources: output.output.sources, byId };
      })();
      outputs.set(buildInfoId, found);
    }
    return found;
  };

  return {
    artifact: async (name) => (await artifacts.readArtifact(name)) as unknown as BuiltArtifact,
    async highestInitializer(name) {
      const artifact = (await artifacts.readArtifact(name)) as unknown as BuiltArtifact;
      if (artifact.buildInfoId === undefined || artifact.inputSourceName === undefined) return undefined;
      const { sources, byId } = await declarations(artifact.buildInfoId);
      const contract = sources[artifact.inputSourceName]?.ast.nodes?.find(
        (n) => n.nodeType === "ContractDefinition" && n.name === artifact.contractName,
      );
      if (contract?.linearizedBaseContracts === undefined) return undefined;
      let highest: number | undefined;
      for (const baseId of contract.linearizedBaseContracts!) {
        for (const member of byId.get(baseId)?.nodes ?? []) {
          if (member.nodeType !== "FunctionDefinition") continue;
          for (const modifier of member.modifiers ?? []) {
            let version: number | undefined;
            if (modifier.modifierName.name === "initializer") version = 1;
            if (modifier.modifierName.name === "reinitializer") version = constantValue(modifier.arguments?.[0], byId);
            if (version !== undefined) highest = Math.max(highest ?? 0, version);
          }
        }
      }
      return highest;
    },
  };
}

/** A literal number, or a constant declared with one. */
function constantValue(node: AstNode | undefined, byId: Map<number, AstNode>): number | undefined {
  if (node === undefined) return undefined;
  if (node.nodeType === "Literal" && typeof node.value === "string") return Number(node.value);
  if (node.nodeType === "Identifier" && node.referencedDeclaration !== undefined) {
    const declaration = byId.get(node.referencedDeclaration);
    if (declaration?.constant === true && typeof declaration.value === "object" && declaration.value !== null) {
      return constantValue(declaration.value, byId);
    }
  }
  return undefined;
}
