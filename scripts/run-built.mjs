// `npm start`, `npm run start:<service>`, `npm run mcp` and `npm run token`: builds dist/ first when a source file
// is newer than the last build, then runs the bundle's entry point in this same process (one
// Node start instead of two: the check costs a few milliseconds, a second process ~50 ms).
// Usage: node scripts/run-built.mjs <entry> [arguments the entry reads from process.argv]
import { fileURLToPath, pathToFileURL } from "node:url";
import { build, isStale } from "./build.mjs";

const entry = process.argv[2];
if (!["start", "service", "mcp", "token"].includes(entry)) {
  process.stderr.write(`usage: node scripts/run-built.mjs start|service|mcp|token [arguments]\n`);
  process.exit(2);
}
if (isStale()) await build();
// the entry reads its own arguments from process.argv[2] on, as when it is run directly; argv[1]
// names the bundle, which WORKERS > 1 forks (node:cluster runs argv[1])
const bundle = fileURLToPath(new URL(`../dist/${entry}.js`, import.meta.url));
process.argv.splice(1, 2, bundle);
await import(pathToFileURL(bundle).href);
