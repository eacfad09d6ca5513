import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// The Node versions the project states (README, "Quick start") in one place each, kept in step:
// package.json's engines, the image's base, .nvmrc, and what the code is compiled and typed for.
const root = join(import.meta.dirname, "..", "..");
const read = (file: string) => readFileSync(join(root, file), "utf8");
const pkg = JSON.parse(read("package.json")) as { engines: { node: string }; devDependencies: Record<string, string> };
/** engines' ranges, `^22.15.0` each, by major */
const ranges = pkg.engines.node.split(" || ").map((range) => range.match(/^\^(\d+)\.(\d+)\.(\d+)$/)?.slice(1).map(Number));
const majors = ranges.map((range) => range?.[0]);

describe("Node versions", () => {
  it("engines lists caret ranges of even (LTS) majors, oldest first", () => {
    expect(ranges.every((range) => range !== undefined), pkg.engines.node).toBe(true);
    expect(majors.every((major) => major! % 2 === 0)).toBe(true);
    expect([...majors].sort((a, b) => a! - b!)).toEqual(majors);
  });

  it("the Docker image and .nvmrc run the newest major engines admits", () => {
    const base = read("Dockerfile").match(/^FROM node:(\d+)-bookworm-slim$/m);
    expect(base, "FROM node:<major>-bookworm-slim").not.toBeNull();
    expect(Number(base![1])).toBe(majors.at(-1));
    expect(read(".nvmrc").trim()).toBe(String(majors.at(-1)));
  });

  it("the bundle is compiled, and the code typed, for the oldest major engines admits", () => {
    expect(read("scripts/build.mjs")).toContain(`target: "node${majors[0]}"`);
    expect(pkg.devDependencies["@types/node"]).toMatch(new RegExp(`^\\^${majors[0]}\\.`));
  });

  it("this process runs on a version engines admits", () => {
    const [major, minor] = process.versions.node.split(".").map(Number);
    expect(ranges.some((range) => range![0] === major && minor! >= range![1]!), process.versions.node).toBe(true);
  });
});
