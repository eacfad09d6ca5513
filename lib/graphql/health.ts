import { Directive, Field, FieldResolver, ID, ObjectType, Resolver } from "type-graphql";
import { oneAtATime, probe, type HealthCheckResult } from "../health.ts";
import type { SubgraphName } from "./subgraph-registry.ts";

/** The id of the one Health entity. */
export const HEALTH_ID = "health";

@Directive("@shareable")
@ObjectType({ description: "One store a subgraph depends on, as that subgraph sees it now." })
export class HealthCheck implements HealthCheckResult {
  @Field(() => String, { description: "what was checked, e.g. `finance database`" })
  name!: string;

  @Field(() => String, { description: "ok or unavailable" })
  status!: HealthCheckResult["status"];
}

/** A subgraph's database as `/health` checks it. */
export interface PingableDatabase {
  $queryRawUnsafe(query: string): Promise<unknown>;
}

/** A subgraph's part of the Health entity: the type and the resolvers contributing its fields. */
export interface SubgraphHealth {
  type: Function;
  resolvers: readonly Function[];
}

/**
 * The `Health` entity as one subgraph contributes to it: a field named after the subgraph
 * (`Health.finance`) that reads the subgraph's own schema (its migrations table), so every subgraph answers for its
 * store in one process and in split mode alike. The users subgraph owns `Query.health`; the
 * gateway asks each other subgraph for its field by the entity key. Never throws: a failing
 * store, or one slower than HEALTH_CHECK_TIMEOUT_MS, is `unavailable`, and the REST adapter turns
 * that into 503.
 */
export function subgraphHealth(name: SubgraphName, db: PingableDatabase): SubgraphHealth & { type: new () => { id: string } } {
  // its own schema, not just the connection: one database may hold every subgraph's schema
  const ping = oneAtATime(() => db.$queryRawUnsafe(`SELECT 1 FROM "${name}"."_prisma_migrations" LIMIT 1`));

  @Directive(`@key(fields: "id")`)
  @ObjectType("Health", { description: "Liveness of every store the deployment depends on; one field per subgraph." })
  class Health {
    @Field(() => ID)
    id!: string;
  }

  @Resolver(() => Health)
  class HealthCheckResolver {
    @FieldResolver(() => HealthCheck, { name, nullable: true, description: `the ${name} subgraph's database; null when the subgraph cannot be reached` })
    check(): Promise<HealthCheck> {
      return probe(`${name} database`, ping);
    }
  }

  return { type: Health, resolvers: [HealthCheckResolver] };
}
