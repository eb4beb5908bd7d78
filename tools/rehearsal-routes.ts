// The mainnet rehearsal's walk over the bridge's routes (tools/rehearsal.ts), apart from the rehearsal
// itself, which loads the compiled contracts' bindings: the unit tier tests the walk without a build.

/**
 * A walk over every directed route between `chains` exactly once, starting and ending at the first
 * chain (an Eulerian circuit of the complete directed graph: it exists since every chain has as
 * many routes in as out).
 */
export function everyRouteOnce(chains: readonly string[]): Array<[string, string]> {
  const unused = new Map(chains.map((c) => [c, chains.filter((d) => d !== c)]));
  // Hierholzer's algorithm
  const stack = [chains[0]];
  const circuit: string[] = [];
  while (stack.length > 0) {
    const at = stack[stack.length - 1];
    const next = unused.get(at)!.shift();
    if (next === undefined) circuit.push(stack.pop()!);
    else stack.push(next);
  }
  circuit.reverse();
  return circuit.slice(1).map((to, i) => [circuit[i], to]);
}
