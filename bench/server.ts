import "reflect-metadata";
import Fastify from "fastify";
import { loadConfig } from "../lib/config.ts";
import { createLogger } from "../lib/logger.ts";
import { startSingleProcess } from "../server/single-process.ts";
import { findUserRecord } from "../subgraphs/users/user/user-record.ts";
import type { UsersServices } from "../subgraphs/users/services.ts";

// The platform as `npm start` runs it, plus a baseline listener that reads the same rows with
// Prisma directly (no adapter, gateway or GraphQL), and the process's memory for the report.
const started = performance.now();
const platform = await startSingleProcess(loadConfig(), { logger: createLogger("silent") });
const ready = performance.now() - started;
const { db } = (platform.subgraphs.users as unknown as { services: UsersServices }).services;

const baseline = Fastify();
baseline.get("/baseline/:id", async (request) => {
  const user = await findUserRecord(db, (request.params as { id: string }).id);
  return { ...user, created_at: user!.created_at.getTime(), updated_at: user!.updated_at.getTime() };
});
baseline.get("/rss", async () => ({ rss: process.memoryUsage().rss }));
await baseline.listen({ port: 0, host: "127.0.0.1" });
const address = baseline.server.address() as { port: number };
process.stdout.write(`${JSON.stringify({ ready_ms: ready, platform: platform.urls.platform, graphql: platform.urls.graphql, baseline: `http://127.0.0.1:${address.port}` })}\n`);
