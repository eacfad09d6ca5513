import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../lib/config.ts";
import { migrationSets } from "../../lib/db/migrations.ts";
import { SUBGRAPHS } from "../../lib/graphql/subgraph-registry.ts";

const root = join(import.meta.dirname, "..", "..");
const read = (file: string) => readFileSync(join(root, file), "utf8");

/** docker-compose.yml's services, each as its block of text (the file is YAML; its layout is ours, so text is enough). */
function composeServices(): Map<string, string> {
  const text = read("docker-compose.yml");
  const body = text.slice(text.indexOf("\nservices:\n"), text.indexOf("\nvolumes:\n"));
  const services = new Map<string, string>();
  for (const block of body.split(/\n(?=  [a-z][\w-]*:\n)/).slice(1)) services.set(block.match(/^  ([a-z][\w-]*):/)![1]!, block);
  return services;
}

describe("subgraph registry", () => {
  it("gives every row a distinct name, port and Prisma folder with a schema", () => {
    for (const key of ["name", "port", "prismaFolder"] as const) expect(new Set(SUBGRAPHS.map((s) => s[key])).size).toBe(SUBGRAPHS.length);
    for (const { prismaFolder } of SUBGRAPHS) expect(existsSync(join(root, "prisma", prismaFolder, "schema.prisma")), prismaFolder).toBe(true);
  });

  it("derives the default URL and its variable from the row", () => {
    const users = SUBGRAPHS.find((s) => s.name === "users")!;
    expect(users).toMatchObject({ port: 4001, defaultUrl: "http://users:4001/graphql", urlVariable: "USERS_SUBGRAPH_URL" });
    const env = Object.fromEntries(SUBGRAPHS.map((s) => [s.urlVariable, `http://127.0.0.1:${s.port}/graphql`]));
    expect(loadConfig(env).subgraphUrls).toEqual(Object.fromEntries(SUBGRAPHS.map((s) => [s.name, `http://127.0.0.1:${s.port}/graphql`])));
  });

  it("migrates every subgraph's Prisma folder", () => {
    for (const { prismaFolder } of SUBGRAPHS) expect(migrationSets).toContain(prismaFolder);
  });

  it("has a start script per subgraph", () => {
    const scripts = JSON.parse(read("package.json")).scripts as Record<string, string>;
    for (const { name } of SUBGRAPHS) expect(scripts[`start:${name}`], name).toBe(`node scripts/run-built.mjs service ${name}`);
  });

  it("matches docker-compose.yml: one service per row on its port, and the gateway pointed at each", () => {
    const services = composeServices();
    for (const { name, port, defaultUrl, urlVariable } of SUBGRAPHS) {
      const service = services.get(name);
      expect(service, `docker-compose.yml has no "${name}" service`).toBeDefined();
      expect(service).toContain(`command: ["node", "scripts/run-built.mjs", "service", "${name}"]`);
      expect(service).toContain(`SUBGRAPH_PORT: "${port}"`);
      expect(services.get("gateway")).toContain(`${urlVariable}: ${defaultUrl}`);
    }
    const dependsOn = services.get("gateway")!.match(/depends_on: \[([^\]]*)\]/)![1]!.split(",").map((s) => s.trim());
    expect(dependsOn.sort()).toEqual(SUBGRAPHS.map((s) => s.name).sort());
    // no subgraph service the registry does not list
    const subgraphServices = [...services].filter(([, block]) => block.includes("SUBGRAPH_PORT:")).map(([name]) => name);
    expect(subgraphServices.sort()).toEqual(SUBGRAPHS.map((s) => s.name).sort());
  });

  it("exposes every subgraph port in the Dockerfile", () => {
    const exposed = read("Dockerfile").match(/^EXPOSE (.*)$/m)![1]!.split(" ").map(Number);
    for (const { port } of SUBGRAPHS) expect(exposed).toContain(port);
  });
});
