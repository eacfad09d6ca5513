import type { FastifyInstance, FastifyRequest } from "fastify";
import { bodyDigest } from "./internal-principal.ts";

const digests = new WeakMap<FastifyRequest, Buffer>();
const EMPTY = bodyDigest("");

/**
 * JSON bodies parsed as Fastify parses them, keeping the SHA-256 of their exact bytes: internal
 * listeners check a signed principal against the body it was signed with.
 */
export function keepBodyDigests(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "buffer" }, (request, body, done) => {
    digests.set(request, bodyDigest(body as Buffer));
    parseJson(request, (body as Buffer).toString("utf8"), done);
  });
}

/** The digest of the request's body (of no bytes, when it had none). */
export function requestBodyDigest(request: FastifyRequest): Buffer {
  return digests.get(request) ?? EMPTY;
}
