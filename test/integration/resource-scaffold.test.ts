import { execFile as execFileCallback, execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, expect, it } from "vitest";

// CONTRIBUTING.md, "Adding a resource", followed literally on a copy of the tree: the scaffold
// writes a throwaway resource (savings goals), the generation commands run, and the resource must
// type-check, compose, serve and document itself (its own e2e test, the shared security table).
// Nothing is written to this checkout: the copy is a temporary folder with its own git history,
// node_modules a link to ours (the embedded database's template it caches there is removed).

const execFile = promisify(execFileCallback);
const ROOT = join(import.meta.dirname, "..", "..");
const TEMPLATE_CACHE = join(ROOT, "node_modules", ".cache", "platform");

/** What the scaffold and the commands write, and nothing else: each file a future change could spare is one to remove here. */
const EXPECTED_CHANGES = [
  // written by `npm run resource:new`
  "?? rest-adapter/resources/savings-goal.ts",
  "?? subgraphs/finance/savings-goals/savings-goal.resolver.ts",
  "?? subgraphs/finance/types/savings-goal.ts",
  "?? test/e2e/savings-goals/savings-goal.test.ts",
  " M lib/errors/catalogue.ts",
  " M prisma/finance/schema.prisma",
  " M subgraphs/finance/index.ts",
  // written by migration:new, compose and generate:operations
  "?? prisma/finance/migrations/<timestamp>_savings_goals/migration.sql",
  " M gateway/supergraph.graphql",
  " M rest-adapter/resources/resources.generated.ts",
];

const copy = mkdtempSync(join(tmpdir(), "resource-scaffold-"));
const cachedBefore = new Set(existsSync(TEMPLATE_CACHE) ? readdirSync(TEMPLATE_CACHE) : []);

afterAll(() => {
  rmSync(copy, { recursive: true, force: true });
  if (existsSync(TEMPLATE_CACHE)) for (const file of readdirSync(TEMPLATE_CACHE)) if (!cachedBefore.has(file)) rmSync(join(TEMPLATE_CACHE, file), { force: true });
});

// the copy's own git, and a vitest of its own rather than this run's workers
const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(GIT_|VITEST|NODE_OPTIONS$)/.test(name)));
const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=scaffold", "-c", "user.email=scaffold@test.invalid", ...args], { cwd: copy, env, encoding: "utf8" });

async function run(command: string, args: string[]): Promise<string> {
  try {
    const { stdout } = await execFile(command, args, { cwd: copy, env, maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${command} ${args.join(" ")} failed:\n${failed.stdout ?? ""}\n${failed.stderr ?? failed.message}`);
  }
}

it(
  "adds savings goals by CONTRIBUTING: 10 files change, and the resource type-checks, composes, serves and documents itself",
  async () => {
    // the tree as it is checked out (tracked files, edits included), committed in the copy so `git status` shows what the steps change
    const tracked = execFileSync("git", ["ls-files", "-z"], { cwd: ROOT, encoding: "utf8" }).split("\0").filter((file) => file && existsSync(join(ROOT, file)));
    for (const file of tracked) {
      mkdirSync(dirname(join(copy, file)), { recursive: true });
      copyFileSync(join(ROOT, file), join(copy, file));
    }
    symlinkSync(join(ROOT, "node_modules"), join(copy, "node_modules"));
    git("init", "-q");
    git("add", "-A");
    git("commit", "-qm", "the tree");

    await run("npm", ["run", "-s", "resource:new", "--", "finance", "savings-goal", "savings-goals"]);
    await run("npm", ["run", "-s", "migration:new", "--", "finance", "savings_goals"]);
    await run("npm", ["run", "-s", "generate"]);
    await run("npm", ["run", "-s", "compose"]);
    await run("npm", ["run", "-s", "generate:operations"]);

    const changes = git("status", "--porcelain", "--untracked-files=all").trimEnd().split("\n");
    expect(changes.map((line) => line.replace(/migrations\/\d{14}_/, "migrations/<timestamp>_")).sort()).toEqual([...EXPECTED_CHANGES].sort());

    // the compiler, and the new resource's e2e test with the shared security table's rows for its routes, side by side
    await Promise.all([
      run("npx", ["tsc", "--noEmit"]),
      run("npx", ["vitest", "run", "--project", "e2e", "test/e2e/savings-goals/", "test/e2e/route-security.test.ts", "-t", "SavingsGoal|^CRUD |^security |^composed "]),
    ]);
  },
  600_000,
);
