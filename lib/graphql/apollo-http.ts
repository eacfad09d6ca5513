import { HeaderMap, type ApolloServer } from "@apollo/server";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { RequestContext } from "./context.ts";

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
