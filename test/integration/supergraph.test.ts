import { describe, expect, it } from "vitest";
import { composeCurrentSupergraph } from "../../server/compose-current.ts";
import { readSupergraph } from "../../server/supergraph.ts";

describe("gateway/supergraph.graphql", () => {
  it("is what the subgraphs compose to today (run `npm run compose` when this fails)", async () => {
    expect(readSupergraph()).toBe(await composeCurrentSupergraph());
  });

  it("keeps internal fields out of the public API and shares the User entity across subgraphs", () => {
    const sdl = readSupergraph();
    expect(sdl).toMatch(/_principal_for_jwt\([^)]*\): ResolvedPrincipal! @inaccessible/);
    for (const graph of ["USERS", "FINANCE", "IDENTITY", "AGENTS"]) expect(sdl).toMatch(new RegExp(`@join__type\\(graph: ${graph}, key: "id"`));
  });
});
