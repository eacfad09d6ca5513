import type { IdentityBootstrap } from "../../lib/config.ts";
import type { Logger } from "../../lib/logger.ts";
import type { IdentityDb } from "./db.ts";

/** What the identity subgraph's resolvers need, built once at start and injected. */
export interface IdentityServices {
  db: IdentityDb;
  logger: Logger;
  /** {sis_url} and {rpc_url}, for key links */
  publicIdentityUrl: string;
  publicRpcUrl: string;
  docsUrl: string;
  bootstrap?: IdentityBootstrap;
}
