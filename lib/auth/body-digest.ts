import type { FastifyInstance, FastifyRequest } from "fastify";
import { acceptJsonBodies, MAX_JSON_DEPTH } from "../json-body.ts";
import { bodyDigest } from "./internal-principal.ts";

const digests = new WeakMap<FastifyRequest, Buffer>();
const EMPTY = bodyDigest("");

/**
 * JSON bodies parsed as every listener parses them (lib/json-body.ts), keeping the SHA-256 of
 * their exact bytes: internal listeners check a signed principal against the body it was signed
 * with. Their bodies wrap a client's in a GraphQL request, so they may nest a little deeper.
 */
export function keepBodyDigests(app: FastifyInstance): void {
  acceptJsonBodies(app, { maxDepth: 2 * MAX_JSON_DEPTH, onBytes: (request, bytes) => digests.set(request, bodyDigest(bytes)) });
}

/** The digest of the request's body (of no bytes, when it had none). */
export function requestBodyDigest(request: FastifyRequest): Buffer {
  return digests.get(request) ?? EMPTY;
}
