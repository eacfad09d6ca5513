// npm run resource:new -- <subgraph> <singular> <plural> [--code ABC]
// Writes a small CRUD resource from templates/resource/ (one table, one GraphQL type and its
// inputs, REST routes with an overlay, an e2e test) and registers it where the tree lists such
// things; then prints the generation commands (CONTRIBUTING.md, "Adding a resource").
// `savings-goal savings-goals`: names in kebab case; `--code`: its error codes' domain and id
// prefix (default: the words' initials, then the last word's letters, to three).
import { existsSync } from "node:fs";
import { mkdir, readFile, readdir, writeFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { ERROR_CATALOGUE } from "../lib/errors/catalogue.ts";
import { SUBGRAPHS } from "../lib/graphql/subgraph-registry.ts";

const ROOT = join(import.meta.dirname, "..");
const TEMPLATE = join(ROOT, "templates", "resource");
/** the model appended to the subgraph's schema.prisma; not a file of its own */
const MODEL = "model.prisma";

function usage(message: string): never {
  console.error(`${message}\nusage: npm run resource:new -- <${SUBGRAPHS.map((s) => s.name).join("|")}> <singular> <plural> [--code ABC]\n  e.g. npm run resource:new -- finance savings-goal savings-goals`);
  process.exit(1);
}

const words = (name: string) => name.split("-");
const capital = (word: string) => word[0]!.toUpperCase() + word.slice(1);
const pascal = (name: string) => words(name).map(capital).join("");

/** Every placeholder of the template and its value. */
function placeholders(subgraph: string, singular: string, plural: string, code: string): Record<string, string> {
  return {
    subgraph,
    Subgraph: pascal(subgraph),
    Singular: pascal(singular),
    Plural: pascal(plural),
    singular: pascal(singular)[0]!.toLowerCase() + pascal(singular).slice(1),
    plural: pascal(plural)[0]!.toLowerCase() + pascal(plural).slice(1),
    singular_snake: words(singular).join("_"),
    plural_snake: words(plural).join("_"),
    SINGULAR: words(singular).join("_").toUpperCase(),
    singular_kebab: singular,
    plural_kebab: plural,
    singular_words: words(singular).join(" "),
    plural_words: words(plural).join(" "),
    Singular_Title: words(singular).map(capital).join(" "),
    Plural_Title: words(plural).map(capital).join(" "),
    CODE: code,
    prefix: code.toLowerCase(),
  };
}

function fill(text: string, values: Record<string, string>): string {
  return text.replace(/__([A-Za-z]+(?:_[A-Za-z]+)*)__/g, (match, name: string) => {
    if (!(name in values)) throw new Error(`unknown placeholder ${match}`);
    return values[name]!;
  });
}

async function templateFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(entries.map((entry) => (entry.isDirectory() ? templateFiles(join(dir, entry.name)) : [join(dir, entry.name)])));
  return nested.flat();
}

/** `text` with `addition` put in before the first match of `anchor` after `after` (or the start). */
function insertBefore(file: string, text: string, anchor: RegExp, addition: string, after = ""): string {
  const from = after ? text.indexOf(after) : 0;
  if (from < 0) throw new Error(`${file}: "${after}" not found`);
  const match = anchor.exec(text.slice(from));
  if (!match) throw new Error(`${file}: ${anchor} not found after "${after}"`);
  const at = from + match.index;
  return text.slice(0, at) + addition + text.slice(at);
}

/** `text` with `line` after its last import. */
function addImport(file: string, text: string, line: string): string {
  const last = [...text.matchAll(/^import [^;]+;\n/gm)].at(-1);
  if (!last) throw new Error(`${file}: no import found`);
  const at = last.index + last[0].length;
  return `${text.slice(0, at)}${line}\n${text.slice(at)}`;
}

async function edit(path: string, change: (text: string) => string): Promise<void> {
  const file = join(ROOT, path);
  await writeFile(file, change(await readFile(file, "utf8")));
  console.log(`edited ${path}`);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const codeAt = args.indexOf("--code");
  const given = codeAt >= 0 ? args.splice(codeAt, 2)[1] : undefined;
  const [subgraph, singular, plural] = args;
  if (!subgraph || !singular || !plural || args.length > 3) usage("missing or extra arguments");
  if (!SUBGRAPHS.some((s) => s.name === subgraph)) usage(`unknown subgraph "${subgraph}"`);
  for (const name of [singular, plural]) if (!/^[a-z]+(-[a-z]+)*$/.test(name)) usage(`"${name}": write names in kebab case, e.g. savings-goal`);
  const initials = words(singular).map((word) => word[0]).join("");
  const code = (given ?? (initials + words(singular).at(-1)!.slice(1)).slice(0, 3)).toUpperCase();
  if (!/^[A-Z]{3,4}$/.test(code)) usage(`--code "${code}": three or four letters`);
  if (Object.keys(ERROR_CATALOGUE).some((key) => key.startsWith(`${code}-`))) usage(`the error code domain ${code} is taken; choose another with --code`);
  const v = placeholders(subgraph, singular, plural, code);

  const templates = (await templateFiles(TEMPLATE)).filter((file) => relative(TEMPLATE, file) !== MODEL);
  const targets = templates.map((file) => ({ from: file, to: fill(relative(TEMPLATE, file), v) }));
  const taken = targets.filter((target) => existsSync(join(ROOT, target.to)));
  if (taken.length > 0) usage(`already there: ${taken.map((target) => target.to).join(", ")}`);

  for (const target of targets) {
    await mkdir(dirname(join(ROOT, target.to)), { recursive: true });
    await writeFile(join(ROOT, target.to), fill(await readFile(target.from, "utf8"), v));
    console.log(`wrote  ${target.to}`);
  }
  const model = fill(await readFile(join(TEMPLATE, MODEL), "utf8"), v);
  const prismaFolder = SUBGRAPHS.find((s) => s.name === subgraph)!.prismaFolder;
  await edit(`prisma/${prismaFolder}/schema.prisma`, (text) => text.trimEnd() + "\n" + model);
  await edit("lib/errors/catalogue.ts", (text) =>
    insertBefore("catalogue.ts", text, /^\} as const satisfies/m, `\n  // ${v.Plural_Title}\n  "${code}-404-001": { status: 404, title: "${v.Singular_Title} Not Found", detail: "No ${v.singular_words} with this id belongs to the user." },\n`),
  );
  await edit(`subgraphs/${subgraph}/index.ts`, (text) =>
    insertBefore("index.ts", addImport("index.ts", text, `import { ${v.Singular}Resolver } from "./${plural}/${singular}.resolver.ts";`), /\]/, `, ${v.Singular}Resolver`, "resolvers: ["),
  );
  console.log(`
Next, from the repository's root (CONTRIBUTING.md, "Adding a resource"):
  npm run migration:new -- ${subgraph} ${v.plural_snake}
  npm run generate
  npm run compose
  npm run generate:operations
  npm run typecheck
  npx vitest run --project e2e test/e2e/${plural}/
  npx vitest run --project e2e test/e2e/route-security.test.ts -t ${v.Singular}
then rename the template's example fields (name, target_amount, target_date) to the resource's own.`);
}

main().catch((error: Error) => {
  console.error(`resource:new failed: ${error.message}`);
  process.exit(1);
});
