import { FieldResolver, Query, Resolver } from "type-graphql";
import { appError } from "../../../lib/errors/app-error.ts";
import { HEALTH_ID, subgraphHealth, type SubgraphHealth } from "../../../lib/graphql/health.ts";
import type { UsersDb } from "../db.ts";

/**
 * The users subgraph owns `Query.health`: it answers without touching any store, so every
 * subgraph's check (`Health.users`, `Health.finance`, ...) runs even while one store is down.
 * `status` and `database` are the users database alone, as before the per-subgraph checks.
 */
export function usersHealth(db: UsersDb): SubgraphHealth {
  const health = subgraphHealth("users", db);

  @Resolver(() => health.type)
  class HealthResolver {
    @Query(() => health.type, { description: "GET /health: one check per subgraph's store." })
    health(): { id: string } {
      return { id: HEALTH_ID };
    }

    @FieldResolver(() => String, { description: "ok while the users database answers; GEN-503-001 otherwise" })
    status(): Promise<string> {
      return usersDatabase(db);
    }

    @FieldResolver(() => String, { description: "ok while the users database answers; GEN-503-001 otherwise" })
    database(): Promise<string> {
      return usersDatabase(db);
    }
  }

  return { type: health.type, resolvers: [HealthResolver, ...health.resolvers] };
}

async function usersDatabase(db: UsersDb): Promise<string> {
  try {
    await db.$queryRawUnsafe("SELECT 1");
  } catch (error) {
    throw appError("GEN-503-001", "The database is unavailable.", { cause: error });
  }
  return "ok";
}
