import { SigningKey } from "../lib/auth/signing-key.ts";
import { loadConfig } from "../lib/config.ts";
import { openDatabase } from "../lib/db/database.ts";
import { createLogger } from "../lib/logger.ts";
import { rateLimitsFor } from "../lib/rate-limit/rate-limits.ts";
import { composeSupergraph, SUPERGRAPH_HEADER } from "../gateway/compose.ts";
import { createAllSubgraphs } from "./subgraphs.ts";

/** The supergraph the current code composes to, as `gateway/supergraph.graphql` should hold it. */
export async function composeCurrentSupergraph(): Promise<string> {
  // schemas need no data: an empty in-memory database satisfies the constructors
  const database = await openDatabase({ dataDir: "memory://" });
  try {
    const config = loadConfig({ DATA_DIR: "memory://" });
    const deps = { config, database, logger: createLogger("silent"), signingKey: await SigningKey.load(undefined, "memory://"), rateLimits: await rateLimitsFor(config) };
    return SUPERGRAPH_HEADER + composeSupergraph(Object.values(await createAllSubgraphs(deps)));
  } finally {
    await database.close();
  }
}
