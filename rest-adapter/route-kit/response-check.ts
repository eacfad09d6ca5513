import AjvModule, { type ErrorObject, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import type { TSchema } from "@sinclair/typebox";
import type { onSendAsyncHookHandler } from "fastify";
import { responseHeaders, type DocumentedRoute } from "./openapi.ts";
import { errorStatuses, routeErrorCodes } from "./route.ts";
import { errorDefinition } from "../../lib/errors/catalogue.ts";
import { COMPONENTS } from "./components.ts";
import { problemSchema } from "./schemas.ts";
import { applyTimestampFormat, timestampFormat } from "./timestamps.ts";

// ajv and ajv-formats are CommonJS with a default export
const Ajv = AjvModule.default ?? AjvModule;
const addFormats = addFormatsModule.default ?? addFormatsModule;

/** A response that differs from what the route's OpenAPI entry promises. */
export interface ResponseMismatch {
  operationId: string;
  method: string;
  /** the request path, query left out */
  url: string;
  status: number;
  /** what differs: an undeclared status, a wrong media type, or the schema's complaints */
  problem: string;
  body: unknown;
}

export type ResponseMismatchReport = (mismatch: ResponseMismatch) => void;

/** `codes`: for an error status, the catalogue codes the route answers with it; `headers`: those the document says every such answer carries */
type Expected = { media: "application/json" | "application/problem+json"; validate?: ValidateFunction; codes?: ReadonlySet<string>; headers: string[] };

/** The response headers documented as required on the route's answers with `status`. */
function requiredHeaders(route: DocumentedRoute, status: number): string[] {
  return Object.entries(responseHeaders(route, status))
    .filter(([, header]) => header.required)
    .map(([name]) => name);
}

function describe(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? e.keyword}${e.keyword === "additionalProperties" ? ` (${String(e.params.additionalProperty)})` : ""}`).join("; ");
}

/**
 * The schema with every object closed: a property the document does not name is a mismatch too
 * (TypeBox objects accept extra properties, which suits requests, not the promise of a response).
 */
function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (typeof schema !== "object" || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    // the keys of `properties` are field names, not keywords
    out[key] = key === "properties" ? Object.fromEntries(Object.entries(value as object).map(([name, property]) => [name, closed(property)])) : closed(value);
  }
  if (out.type === "object" && out.properties && out.additionalProperties === undefined && out.patternProperties === undefined) out.additionalProperties = false;
  return out;
}

/**
 * Checks each answer of a listener against its route's documented responses: the status is one
 * the route documents (`responses` or `errorStatuses`), the media type matches, the body
 * validates against the status's schema (`problemSchema` for errors), objects closed, and a
 * ProblemDetail's `error_code` is one of the route's codes (`routeErrorCodes`), and the headers
 * documented as required are sent (`responseHeaders`: Retry-After on a 429 and a 503). Built only
 * when a caller asks for it (the test platform), so production answers pass through untouched.
 * `X-Timestamp-Format: iso8601` answers are checked after turning their timestamps back into
 * epoch milliseconds, the format the schemas describe (the conversion is lossless both ways).
 */
export class ResponseChecker {
  private readonly ajv = addFormats(new Ajv({ allErrors: true, strict: false }));
  private readonly problem: ValidateFunction;
  private readonly unprocessable: ValidateFunction;

  constructor(private readonly report: ResponseMismatchReport) {
    for (const component of COMPONENTS) this.ajv.addSchema(closed(component) as TSchema);
    this.problem = this.compile(problemSchema(500));
    this.unprocessable = this.compile(problemSchema(422));
  }

  /** A component (`$id`) is compiled once per checker, whichever route names it. */
  private compile(schema: TSchema): ValidateFunction {
    return (schema.$id && this.ajv.getSchema(schema.$id)) || this.ajv.compile(closed(schema) as TSchema);
  }

  /** The route's documented answers, compiled once. */
  private expectations(route: DocumentedRoute): Map<number, Expected> {
    const expected = new Map<number, Expected>();
    for (const [status, doc] of Object.entries(route.responses)) {
      expected.set(Number(status), { media: "application/json", ...(doc.schema && { validate: this.compile(doc.schema) }), headers: requiredHeaders(route, Number(status)) });
    }
    const codes = routeErrorCodes(route);
    for (const status of errorStatuses(route)) {
      const validate = status === 422 ? this.unprocessable : this.problem;
      const own = codes.filter((code) => errorDefinition(code).status === status);
      expected.set(status, { media: "application/problem+json", validate, codes: new Set(own), headers: requiredHeaders(route, status) });
    }
    return expected;
  }

  /** A Fastify `onSend` hook for one route; it reports and never changes the answer. */
  hook(route: DocumentedRoute): onSendAsyncHookHandler<unknown> {
    const expected = this.expectations(route);
    return async (request, reply, payload) => {
      if (request.method === "HEAD") return payload;
      const status = reply.statusCode;
      const mismatch = (problem: string, body: unknown) =>
        this.report({ operationId: route.operationId, method: request.method, url: request.url.split("?")[0]!, status, problem, body });
      const text = typeof payload === "string" ? payload : Buffer.isBuffer(payload) ? payload.toString("utf8") : "";
      let body: unknown;
      try {
        body = text === "" ? undefined : JSON.parse(text);
      } catch {
        return (mismatch("a body that is not JSON", text), payload);
      }
      const entry = expected.get(status);
      if (!entry) return (mismatch(`status ${status} is not declared`, body), payload);
      for (const name of entry.headers) if (reply.getHeader(name) === undefined) mismatch(`no ${name} header, which every documented ${status} answer carries`, body);
      const media = String(reply.getHeader("content-type") ?? "").split(";")[0];
      if (body !== undefined && media !== entry.media) mismatch(`content type ${media}, documented ${entry.media}`, body);
      if (!entry.validate) {
        if (body !== undefined) mismatch("a body where none is documented", body);
        return payload;
      }
      if (body === undefined) return (mismatch("no body where one is documented", body), payload);
      const checked = timestampFormat(request.headers["x-timestamp-format"]) === "iso8601" ? applyTimestampFormat(body, "epoch_ms") : body;
      if (!entry.validate(checked)) mismatch(describe(entry.validate.errors), body);
      else if (entry.codes) {
        const code = (body as { error_code: string }).error_code;
        if (!entry.codes.has(code)) mismatch(`error_code ${code} is not one of the route's codes (${[...entry.codes].join(", ")})`, body);
      }
      return payload;
    };
  }
}
