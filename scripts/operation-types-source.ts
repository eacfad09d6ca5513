import { identityRoutes } from "../rest-adapter/hosts/identity.ts";
import { platformRoutes } from "../rest-adapter/hosts/platform.ts";
import { isOperationRoute } from "../rest-adapter/route-kit/route.ts";
import { readSupergraph } from "../server/supergraph.ts";
import { apiSchemaOf, renderOperationTypes } from "./operation-types.ts";

/** The generated module's operation data as the committed supergraph and today's route tables make it (webhooks and composed routes run no single operation). */
export function currentOperationTypes(): string {
  return renderOperationTypes(apiSchemaOf(readSupergraph()), [...platformRoutes, ...identityRoutes].filter(isOperationRoute));
}
