import { HeaderMap, type ApolloServer } from "@apollo/server";
import { ApolloServerErrorCode } from "@apollo/server/errors";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { RequestContext } from "./context.ts";
import { documentBeyondLimits, type GraphqlLimits } from "./limits.ts";

/** Hands a Fastify request to Apollo Server and writes its answer back (our GraphQL listeners). */
export async function answerWithApollo(server: ApolloServer<RequestContext>, request: FastifyRequest, reply: FastifyReply, context: RequestContext): Promise<FastifyReply> {
  const headers = new HeaderMap();
  for (const [name, value] of Object.entries(request.headers)) if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  const response = await server.executeHTTPGraphQLRequest({
    httpGraphQLRequest: { method: request.method, headers, search: request.url.split("?")[1] ?? "", body: request.body },
    context: async () => context,
  });
  for (const [name, value] of response.headers) reply.header(name, value);
  reply.code(response.status ?? 200);
  if (response.body.kind === "complete") return reply.send(response.body.string);
  let text = "";
  for await (const chunk of response.body.asyncIterator) text += chunk;
  return reply.send(text);
}

/**
 * Answers a request whose document (the `query` of a POST body or of a GET's query string) is
 * beyond max_document_bytes as Apollo answers one beyond max_tokens, 400 GRAPHQL_PARSE_FAILED,
 * before anything reads it (a plugin throwing before Apollo's parse makes a 500); undefined lets
 * the request through.
 */
export function refuseLongDocument(request: FastifyRequest, reply: FastifyReply, limits: GraphqlLimits): FastifyReply | undefined {
  const { query } = ((request.method === "GET" ? request.query : request.body) ?? {}) as { query?: unknown };
  const beyond = typeof query === "string" ? documentBeyondLimits(query, limits) : undefined;
  if (beyond === undefined) return undefined;
  return reply.code(400).send({ errors: [{ message: beyond, extensions: { code: ApolloServerErrorCode.GRAPHQL_PARSE_FAILED } }] });
}
