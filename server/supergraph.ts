import { readFileSync } from "node:fs";
import { join } from "node:path";

export const SUPERGRAPH_PATH = join(import.meta.dirname, "..", "gateway", "supergraph.graphql");

/** The checked-in composition (`npm run compose` writes it; a test fails when it is stale). */
export function readSupergraph(): string {
  return readFileSync(SUPERGRAPH_PATH, "utf8");
}
