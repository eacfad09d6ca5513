import { describe, expect, it } from "vitest";
import { SUBGRAPH_NAMES } from "../../lib/graphql/subgraph-registry.ts";
import { composeCurrentSupergraph } from "../../server/compose-current.ts";
import { readSupergraph } from "../../server/supergraph.ts";

describe("gateway/supergraph.graphql", () => {
  it("is what the subgraphs compose to today (run `npm run compose` when this fails)", async () => {
    expect(readSupergraph()).toBe(await composeCurrentSupergraph());
  });

  it("keeps internal fields out of the public API and shares the User entity across subgraphs", () => {
    const sdl = readSupergraph();
    expect(sdl).toMatch(/_principal_for_jwt\([^)]*\): ResolvedPrincipal! @inaccessible/);
    for (const name of SUBGRAPH_NAMES) expect(sdl).toMatch(new RegExp(`@join__type\\(graph: ${name.toUpperCase()}, key: "id"`));
  });
});
