import type { Static, TSchema } from "@sinclair/typebox";
import { metricsEnabled, recordWebhookDelivery } from "../../lib/metrics.ts";
import type { FastifyInstance } from "fastify";
import { AppError } from "../../lib/errors/app-error.ts";
import type { GatewayClient } from "../route-kit/gateway-client.ts";
import { errorFromGraphQL } from "../route-kit/graphql-errors.ts";
import type { DocumentedRoute } from "../route-kit/openapi.ts";
import type { ResponseChecker } from "../route-kit/response-check.ts";
import { JsonBodyError, jsonInvalid, parseJsonBody } from "../../lib/json-body.ts";
import { compileValidator, validationItems } from "../../lib/json-validation.ts";

export type WebhookHeaders = Record<string, string | string[] | undefined>;

/**
 * An incoming webhook receiver (spec 4.5, 5.3): the provider's signature is checked on the raw
 * bytes before anything is parsed, the verified body is validated against the envelope, and the
 * event goes to the owning subgraph through an internal mutation that only the adapter's own
 * principal may call. 200 `{received: true}` when handled (no-ops included); a handler failure is
 * 5xx so the provider retries.
 */
export interface WebhookReceiver<E extends TSchema = TSchema>
  extends Omit<DocumentedRoute, "method" | "security" | "optionalSecurity" | "body" | "params" | "query" | "validateBody" | "bodyError" | "rateLimitError" | "rawBody"> {
  /** the verified body's schema (422 with FastAPI-style items when it does not match) */
  envelope: E;
  /** throws WHK-401-001 unless the delivery is authentic; gets the raw body bytes */
  verify(raw: Buffer, headers: WebhookHeaders, now: Date): void;
  /** checks on the verified envelope: against unsigned headers (e.g. webhook-id against the envelope id), its age */
  check?(envelope: Static<E>, headers: WebhookHeaders, now: Date): void;
  /** the internal GraphQL mutation that hands the event to its subgraph */
  operation: string;
  variables(envelope: Static<E>, headers: WebhookHeaders): Record<string, unknown>;
}

export function defineWebhook<E extends TSchema>(receiver: WebhookReceiver<E>): WebhookReceiver {
  return receiver as unknown as WebhookReceiver;
}

/** The receiver as the OpenAPI document shows it. */
export function webhookDocumentation(receiver: WebhookReceiver): DocumentedRoute {
  const { envelope, verify: _verify, check: _check, operation: _operation, variables: _variables, ...doc } = receiver;
  return { ...doc, method: "POST", security: [], body: envelope, rawBody: true };
}

/**
 * Registers the receivers in their own scope, where every body stays raw bytes until verified;
 * `checker` (tests) compares each answer with the receiver's documented responses.
 */
export function registerWebhooks(app: FastifyInstance, receivers: WebhookReceiver[], gateway: GatewayClient, checker?: ResponseChecker): void {
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", { parseAs: "buffer" }, (_request, body, done) => done(null, body));
    if (metricsEnabled())
      scope.addHook("onResponse", (request, reply, done) => {
        recordWebhookDelivery(request.routeOptions.url ?? request.url, reply.statusCode);
        done();
      });
    for (const receiver of receivers) {
      const validator = compileValidator(receiver.envelope, "body");
      const operation = gateway.prepare(receiver.operation);
      scope.post(receiver.path, { ...(checker && { onSend: checker.hook(webhookDocumentation(receiver)) }) }, async (request, reply) => {
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const now = new Date();
        receiver.verify(raw, request.headers, now);
        let envelope: unknown;
        try {
          envelope = parseJsonBody(raw, request.headers["content-type"]);
        } catch (error) {
          if (!(error instanceof JsonBodyError)) throw error;
          // a receiver reads any media type: every refusal of the body, its charset's too, is the envelope's 422
          throw jsonInvalid(error.message);
        }
        if (!validator(envelope)) throw new AppError("GEN-422-001", { validation: validationItems(validator.errors ?? [], "body", envelope) });
        receiver.check?.(envelope as never, request.headers, now);
        const result = await gateway.execute({
          operation,
          variables: receiver.variables(envelope as never, request.headers),
          headers: {},
          credentials: "internal",
          trace_id: request.id,
          client_address: request.ip,
        });
        if (result.errors?.length) throw errorFromGraphQL(result.errors);
        return reply.code(200).send({ received: true });
      });
    }
  });
}
