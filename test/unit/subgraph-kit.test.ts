import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { execute, GraphQLNonNull, GraphQLObjectType, GraphQLSchema, GraphQLString, parse, printSchema } from "graphql";
import { Ctx, Query, Resolver } from "type-graphql";
import { describe, expect, it } from "vitest";
import { SigningKey } from "../../lib/auth/signing-key.ts";
import { loadConfig } from "../../lib/config.ts";
import { appError } from "../../lib/errors/app-error.ts";
import type { RequestContext } from "../../lib/graphql/context.ts";
import { buildSubgraph, defineSubgraph, type PlatformDeps } from "../../lib/graphql/define-subgraph.ts";
import { FederatedClient, LocalSubgraphTransport, type SubgraphTransport } from "../../lib/graphql/federated-client.ts";
import { SUBGRAPH_NAMES } from "../../lib/graphql/subgraph-registry.ts";
import { createLogger } from "../../lib/logger.ts";
import { rateLimitsFor } from "../../lib/rate-limit/rate-limits.ts";
import { subgraphPeers } from "../../server/subgraphs.ts";

const root = join(import.meta.dirname, "..", "..");

function sourceFiles(folder: string): string[] {
  return readdirSync(join(root, folder)).flatMap((entry) => {
    const path = join(folder, entry);
    if (entry === "generated" || entry === "node_modules") return [];
    if (statSync(join(root, path)).isDirectory()) return sourceFiles(path);
    return path.endsWith(".ts") ? [path] : [];
  });
}

/** The files a file's relative imports reach (static, bare and dynamic), from the project root. */
function importedPaths(file: string): string[] {
  const text = readFileSync(join(root, file), "utf8");
  return [...text.matchAll(/(?:\bfrom\s+|\bimport\s*\(?\s*)"(\.[^"]+)"/g)].map((m) => relative(root, join(root, file, "..", m[1]!)));
}

/** A peer answering `whoami` with the caller's principal, or failing as told. */
const peerSchema = new GraphQLSchema({
  query: new GraphQLObjectType({
    name: "Query",
    fields: {
      whoami: { type: new GraphQLNonNull(GraphQLString), resolve: (_root, _args, context: RequestContext) => JSON.stringify(context.principal) },
      missing: {
        type: GraphQLString,
        resolve: () => {
          throw appError("WAL-404-001");
        },
      },
      broken: {
        type: GraphQLString,
        resolve: () => {
          throw new Error("database exploded at 10.0.0.7");
        },
      },
    },
  }),
});

describe("the subgraph kit", () => {
  it("keeps gateway, adapter and server code out of subgraphs and lib, and each subgraph out of the others' internals", () => {
    for (const file of [...sourceFiles("subgraphs"), ...sourceFiles("lib")]) {
      for (const target of importedPaths(file)) {
        expect(target, `${file} imports ${target}`).not.toMatch(/^(gateway|rest-adapter|server|bin)\//);
        const own = file.split("/").slice(0, 2).join("/");
        if (file.startsWith("subgraphs/") && target.startsWith("subgraphs/") && target.split("/").length > 2) expect(target.startsWith(`${own}/`), `${file} imports ${target}`).toBe(true);
      }
    }
  });

  // issue 28: in split mode the adapter and the gateway would otherwise load subgraph code (and its
  // Prisma client) they never run; lib never imports subgraphs (above), so a direct import is the only way in
  it("keeps subgraph code out of the adapter and the gateway: what they share with a subgraph lives in lib/contracts", () => {
    const files = [...sourceFiles("rest-adapter"), ...sourceFiles("gateway")];
    expect(files.length).toBeGreaterThan(50);
    for (const file of files) for (const target of importedPaths(file)) expect(target, `${file} imports ${target}`).not.toMatch(/^subgraphs\//);
  });

  // issue 28: the route kit serves the agent runtime (tools are its routes' requests), never the other way round
  it("keeps the agent runtime out of the route kit", () => {
    for (const file of sourceFiles("rest-adapter/route-kit")) for (const target of importedPaths(file)) expect(target, `${file} imports ${target}`).not.toMatch(/^rest-adapter\/agent-runtime\//);
  });

  it("declares every subgraph's peers by registry name, never itself", () => {
    for (const name of SUBGRAPH_NAMES) {
      for (const peer of subgraphPeers(name)) {
        expect(SUBGRAPH_NAMES).toContain(peer);
        expect(peer).not.toBe(name);
      }
    }
    expect(subgraphPeers("identity")).toEqual(["users", "finance", "agents"]);
  });

  it("queries a peer as the calling service's internal principal", async () => {
    const users = new FederatedClient("users", new LocalSubgraphTransport(peerSchema), "identity");
    const data = await users.query<{ whoami: string }>(parse("{ whoami }"), {}, "trace-1");
    expect(JSON.parse(data.whoami)).toEqual({ kind: "internal", service: "identity" });
  });

  it("passes a peer's catalogue error on as it is, and turns anything else into GEN-503-001 naming the peer", async () => {
    const users = new FederatedClient("users", new LocalSubgraphTransport(peerSchema), "identity");
    await expect(users.query(parse("{ missing }"), {}, "t")).rejects.toMatchObject({ code: "WAL-404-001", status: 404 });
    const broken = await users.query(parse("{ broken }"), {}, "t").catch((error: unknown) => error);
    expect(broken).toMatchObject({ code: "GEN-503-001", status: 503, detail: "The users service could not answer." });
    expect(JSON.stringify(broken)).not.toContain("10.0.0.7");
    const unreachable: SubgraphTransport = { execute: () => Promise.reject(new Error("ECONNREFUSED 127.0.0.1:4001")) };
    await expect(new FederatedClient("users", unreachable, "identity").query(parse("{ whoami }"), {}, "t")).rejects.toMatchObject({
      code: "GEN-503-001",
      detail: "The users service could not be reached.",
    });
  });

  it("builds a subgraph from its definition: services from deps and peers, resolvers constructed with them, its Health field, hooks in order", async () => {
    const events: string[] = [];
    interface Services {
      db: { $queryRawUnsafe(): Promise<unknown>; $disconnect(): Promise<void> };
      greeting: string;
      users: FederatedClient;
    }

    @Resolver()
    class GreetingResolver {
      constructor(private readonly services: Services) {}

      @Query(() => String)
      async greeting(@Ctx() context: RequestContext): Promise<string> {
        const { whoami } = await this.services.users.query<{ whoami: string }>(parse("{ whoami }"), {}, context.trace_id);
        return `${this.services.greeting} from ${JSON.parse(whoami).service}`;
      }
    }

    const definition = defineSubgraph({
      name: "agents",
      peers: ["users"],
      services: (deps: PlatformDeps, peers): Services => {
        events.push(`services:${deps.config.logLevel}`);
        return {
          db: { $queryRawUnsafe: async () => [], $disconnect: async () => void events.push("disconnect") },
          greeting: "hello",
          users: peers.users,
        };
      },
      resolvers: [GreetingResolver],
      prepare: async () => void events.push("prepare"),
      start: () => void events.push("start"),
      stop: async () => void events.push("stop"),
    });
    const config = loadConfig({ DATA_DIR: "memory://", LOG_LEVEL: "warn" });
    const deps = { config, database: undefined as never, logger: createLogger("silent"), signingKey: await SigningKey.load(undefined, "memory://"), rateLimits: await rateLimitsFor(config) };
    const subgraph = await buildSubgraph(definition, deps, { users: new FederatedClient("users", new LocalSubgraphTransport(peerSchema), "agents") });

    expect(subgraph.name).toBe("agents");
    expect(subgraph.services.greeting).toBe("hello");
    const sdl = printSchema(subgraph.schema);
    expect(sdl).toMatch(/type Health\b[\s\S]*agents: HealthCheck/);
    const result = await execute({ schema: subgraph.schema, document: parse("{ greeting }"), contextValue: { principal: { kind: "anonymous" }, trace_id: "t" } });
    expect(result).toEqual({ data: { greeting: "hello from agents" } });
    subgraph.start();
    await subgraph.stop();
    expect(events).toEqual(["services:warn", "prepare", "start", "stop", "disconnect"]);
  });
});
