import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as generated from "../../rest-adapter/resources/resources.generated.ts";
import { SANDBOX_TAG, type Route } from "../../rest-adapter/route-kit/route.ts";

// A tag's tests sit beside each other (CONTRIBUTING.md, "Tests"): test/e2e/<tag>/ holds the e2e
// tests of the spec tag's routes, and each route module, rest-adapter/routes/<name>.ts or a
// resource's overlay with routes, rest-adapter/resources/<name>.ts, has its
// test/e2e/<tag>/<name>.test.ts in the folder of one of its routes' tags.

const root = join(import.meta.dirname, "..", "..");
const e2e = join(root, "test", "e2e");
/** Suites about no one tag (fuzzing, limits, start, split mode, …). */
const CROSS_CUTTING = "platform";
/** The security table runs over every route, so it stays shared at the top. */
const SHARED = ["route-security.test.ts"];

/** A spec tag's folder: "API Keys" -> "api-keys". */
function tagFolder(tag: string): string {
  return tag.toLowerCase().replace(/[^a-z0-9]+/g, "-");
}

/** A module's routes: its arrays of routes, or an overlay's `routes` made with the generated shapes. */
function routesOf(exports: Record<string, unknown>): Route[] {
  if (typeof exports.routes === "function") return (exports.routes as (shapes: typeof generated) => Route[])(generated);
  return Object.values(exports).flatMap((value) => (Array.isArray(value) ? (value as Route[]) : [])).filter((route) => typeof route?.operationId === "string");
}

const modules = (
  await Promise.all(
    ["routes", "resources"].flatMap((folder) =>
      readdirSync(join(root, "rest-adapter", folder))
        .filter((file) => file.endsWith(".ts") && !file.endsWith(".generated.ts"))
        .map(async (file) => {
          const routes = routesOf(await import(join(root, "rest-adapter", folder, file)));
          const tags = [...new Set(routes.map((route) => route.tag).filter((tag) => tag !== SANDBOX_TAG))];
          return { path: `rest-adapter/${folder}/${file}`, name: file.replace(/\.ts$/, ""), routes, tags };
        }),
    ),
  )
).filter(({ path, routes }) => path.startsWith("rest-adapter/routes/") || routes.length > 0);

describe("e2e tests by tag", () => {
  it("finds the route modules and their tags", () => {
    expect(modules.length).toBeGreaterThan(30);
    for (const { name, tags } of modules) expect(tags, name).not.toEqual([]);
  });

  it("gives each route module a test file named like it in the folder of one of its tags", () => {
    const missing = modules
      .filter(({ name, tags }) => !tags.some((tag) => existsSync(join(e2e, tagFolder(tag), `${name}.test.ts`))))
      .map(({ path, name, tags }) => `${path}: no ${tags.map((tag) => `test/e2e/${tagFolder(tag)}/${name}.test.ts`).join(" or ")}`);
    expect(missing).toEqual([]);
  });

  it("keeps every e2e test in a tag's folder or in platform/, but the shared security table", () => {
    const folders = new Set([...modules.flatMap(({ tags }) => tags.map(tagFolder)), CROSS_CUTTING]);
    const misplaced = readdirSync(e2e).filter((entry) =>
      statSync(join(e2e, entry)).isDirectory() ? !folders.has(entry) : entry.endsWith(".test.ts") && !SHARED.includes(entry),
    );
    expect(misplaced).toEqual([]);
  });
});
