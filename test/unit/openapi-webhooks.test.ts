import AjvModule from "ajv";
import addFormatsModule from "ajv-formats";
import { describe, expect, it } from "vitest";
import { EVENT_PAYLOADS, EVENT_TYPES, type EventType } from "../../lib/contracts/events.ts";
import { sampleEventData } from "../../lib/contracts/event-samples.ts";
import { identityRoutes } from "../../rest-adapter/hosts/identity.ts";
import { buildOpenApiDocument } from "../../rest-adapter/route-kit/openapi.ts";
import { eventPayloadComponents, outgoingEventWebhooks } from "../../rest-adapter/webhooks/outgoing-events.ts";
import { refsIn, resolveRef } from "../support/openapi-document.ts";

// ajv and ajv-formats are CommonJS with a default export
const Ajv = AjvModule.default ?? AjvModule;
const addFormats = addFormatsModule.default ?? addFormatsModule;

// Issue 29: the identity host's document shows each outgoing event type under OpenAPI 3.1
// `webhooks`, built from the catalogue, with its payload schema in components.schemas.
const document = buildOpenApiDocument({
  title: "Identity service",
  description: "d",
  serverUrl: "http://identity.test",
  errorStyle: "identity",
  routes: identityRoutes,
  webhooks: outgoingEventWebhooks(),
  schemas: eventPayloadComponents(),
}) as any;

const bodyOf = (type: string) => document.webhooks[type].post.requestBody.content["application/json"].schema;

function envelope(type: EventType, data: unknown) {
  return { id: "evt_01jz", type, api_version: document.info.version, created_at: 1_795_694_400_000, environment_id: "org_1:env_1", resource: { type: type.split(".")[0], id: "x_1" }, data };
}

describe("the identity document's webhooks", () => {
  it("has one POST per catalogue type, with the Standard Webhooks headers, under a tag the document lists", () => {
    expect(document.openapi).toBe("3.1.0");
    expect(Object.keys(document.webhooks)).toEqual([...EVENT_TYPES]);
    for (const type of EVENT_TYPES) {
      const { post } = document.webhooks[type];
      expect(post.parameters.filter((p: { required: boolean }) => p.required).map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).toEqual(
        expect.arrayContaining(["header:webhook-id", "header:webhook-timestamp", "header:webhook-signature"]),
      );
      expect(Object.keys(post.responses).sort()).toEqual(["2XX", "410", "default"]);
      expect(bodyOf(type).properties.type).toEqual({ const: type, type: "string" });
    }
    expect(new Set(outgoingEventWebhooks().map((webhook) => webhook.operationId)).size).toBe(EVENT_TYPES.length);
    expect(document.tags.map((tag: { name: string }) => tag.name)).toContain("Events");
  });

  it("refers each type with a payload schema to it in components.schemas, and gives the others a generic data object", () => {
    for (const type of EVENT_TYPES) {
      const data = bodyOf(type).properties.data;
      if (type in EVENT_PAYLOADS) expect(document.components.schemas[data.$ref.replace("#/components/schemas/", "")], type).toBeDefined();
      else expect(data, type).toMatchObject({ type: "object", additionalProperties: true });
    }
    for (const ref of refsIn(document)) expect(resolveRef(document, ref), ref).toBeDefined();
  });

  it("refuses a payload schema named like another component, which would replace it", () => {
    const build = (schemas: object[]) => buildOpenApiDocument({ title: "t", description: "d", serverUrl: "http://x.test", routes: [], schemas: schemas as never });
    expect(() => build([{ $id: "ProblemDetail", type: "object" }])).toThrow("two components are named ProblemDetail");
    expect(() => build(eventPayloadComponents())).not.toThrow();
  });

  it("validates each type's sample (the sandbox test event's data) against its envelope, and refuses a payload missing a field", () => {
    const ajv = addFormats(new Ajv({ allErrors: true, strict: false }));
    ajv.addSchema({ $id: "doc", components: document.components });
    for (const type of EVENT_TYPES) {
      const schema = JSON.parse(JSON.stringify(bodyOf(type)).replaceAll('"#/components/', '"doc#/components/'));
      const validate = ajv.compile(schema);
      const data = sampleEventData(type);
      expect(validate(envelope(type, data)), `${type}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      const [first] = Object.keys(data);
      if (first !== undefined) {
        const { [first]: _dropped, ...less } = data;
        expect(validate(envelope(type, less)), type).toBe(false);
      }
    }
  });
});
