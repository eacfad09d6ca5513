import { join } from "node:path";
import { identityRoutes } from "../rest-adapter/hosts/identity.ts";
import { platformRoutes } from "../rest-adapter/hosts/platform.ts";
import { isOperationRoute } from "../rest-adapter/route-kit/route.ts";
import { readSupergraph } from "../server/supergraph.ts";
import { apiSchemaOf, renderOperationTypes } from "./operation-types.ts";

export const OPERATION_TYPES_PATH = join(import.meta.dirname, "..", "rest-adapter", "route-kit", "operation-data.generated.ts");

/** The generated module as the committed supergraph and today's route tables make it (webhooks and composed routes run no single operation). */
export function currentOperationTypes(): string {
  return renderOperationTypes(apiSchemaOf(readSupergraph()), [...platformRoutes, ...identityRoutes].filter(isOperationRoute));
}
