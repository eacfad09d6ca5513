import { readdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { readSupergraph } from "../server/supergraph.ts";
import { apiSchemaOf } from "./operation-types.ts";
import { renderRestSchemas, type ResourceModule } from "./rest-schemas.ts";

const RESOURCES_DIR = join(import.meta.dirname, "..", "rest-adapter", "resources");
/** The one generated module of the adapter: the resources' shapes, then the routes' operation data. */
export const GENERATED_PATH = join(RESOURCES_DIR, "resources.generated.ts");

/** The generated module's first part as the committed supergraph and today's overlays (every module of rest-adapter/resources/) make it. */
export async function currentRestSchemas(): Promise<string> {
  const modules: ResourceModule[] = [];
  for (const file of readdirSync(RESOURCES_DIR).filter((name) => name.endsWith(".ts") && join(RESOURCES_DIR, name) !== GENERATED_PATH).sort()) {
    modules.push({ name: file.slice(0, -".ts".length), exports: await import(pathToFileURL(join(RESOURCES_DIR, file)).href) });
  }
  return renderRestSchemas(apiSchemaOf(readSupergraph()), modules);
}

/** The whole generated module: the resources' part, then the operations' data. */
export function generatedModule(restSchemas: string, operationTypes: string): string {
  return `${restSchemas}\n${operationTypes}`;
}
