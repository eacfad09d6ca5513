import { getStitchedSchemaFromSupergraphSdl } from "@graphql-tools/federation";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { execute, parse, validate, type DocumentNode, type GraphQLSchema } from "graphql";
import { requestPrincipal } from "../gateway/request-principal.ts";
import type { OperationHandle } from "../rest-adapter/route-kit/gateway-client.ts";
import type { RunningPlatform } from "../server/single-process.ts";
import { readSupergraph } from "../server/supergraph.ts";

/**
 * What staying on Apollo Gateway costs: the same supergraph and the same in-process subgraph
 * schemas behind two federation executors, each given an operation already parsed and
 * validated, so the two routes differ only in planning and executing it.
 * - `POST /gateways/apollo`: Apollo Gateway's executor, as the REST adapter runs it;
 * - `POST /gateways/graphql-tools`: `@graphql-tools/federation`, the executor under Hive Gateway.
 * Both authenticate the request as `/graphql` does, and resolvers get the same context.
 */
export function gatewayComparisonRoutes(app: FastifyInstance, platform: RunningPlatform): void {
  const { gatewayClient } = platform;
  const body = (request: FastifyRequest) => request.body as { query: string; variables?: Record<string, unknown> };
  const caller = (request: FastifyRequest) => ({ credentials: "required" as const, headers: request.headers, trace_id: request.id, client_address: request.ip });

  const apolloOperations = new Map<string, OperationHandle>();
  app.post("/gateways/apollo", async (request) => {
    const { query, variables = {} } = body(request);
    let operation = apolloOperations.get(query);
    if (!operation) apolloOperations.set(query, (operation = gatewayClient.prepare(query)));
    return gatewayClient.execute({ ...caller(request), operation, variables });
  });

  const subgraphs = platform.subgraphs;
  const stitched: GraphQLSchema = getStitchedSchemaFromSupergraphSdl({
    supergraphSdl: readSupergraph(),
    onSubschemaConfig(config) {
      // named by the supergraph's join__Graph value (USERS), which composition made of ours (users)
      const schema = subgraphs[config.name!.toLowerCase()]!.schema;
      config.executor = ({ document, variables, context, operationName }) => execute({ schema, document, variableValues: variables, contextValue: context, operationName }) as never;
    },
  });
  const documents = new Map<string, DocumentNode>();
  app.post("/gateways/graphql-tools", async (request, reply) => {
    const { query, variables = {} } = body(request);
    let document = documents.get(query);
    if (!document) {
      document = parse(query);
      const errors = validate(stitched, document);
      if (errors.length > 0) return reply.code(400).send({ errors });
      documents.set(query, document);
    }
    const principal = await requestPrincipal(gatewayClient.authenticator, caller(request));
    return execute({ schema: stitched, document, variableValues: variables, contextValue: { principal, trace_id: request.id, client: { address: request.ip } } });
  });
}
