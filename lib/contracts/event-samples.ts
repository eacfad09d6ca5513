import type { TSchema } from "@sinclair/typebox";
import { EVENT_PAYLOADS, type EventType } from "./events.ts";

type JsonSchema = {
  examples?: unknown[];
  default?: unknown;
  const?: unknown;
  anyOf?: JsonSchema[];
  type?: string;
  format?: string;
  minimum?: number;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
};

/**
 * A value of `schema` made from its own examples: a field's first `examples` entry, else its
 * `const` or `default`, else the first member of a union, else a plain value of its type. The
 * sandbox's test events carry it, and the documents' checks validate it, so a payload schema's
 * examples are what a developer sees arrive.
 */
export function sampleOf(schema: TSchema | JsonSchema): unknown {
  const s = schema as JsonSchema;
  if (s.examples?.length) return s.examples[0];
  if ("const" in s) return s.const;
  if ("default" in s) return s.default;
  if (s.anyOf?.length) return sampleOf(s.anyOf.find((member) => member.type !== "null") ?? s.anyOf[0]!);
  switch (s.type) {
    case "object":
      return Object.fromEntries(Object.entries(s.properties ?? {}).map(([name, property]) => [name, sampleOf(property)]));
    case "array":
      return s.items ? [sampleOf(s.items)] : [];
    case "integer":
    case "number":
      return s.minimum ?? 1;
    case "boolean":
      return true;
    case "null":
      return null;
    case "string":
      return s.format === "date-time" ? new Date(0).toISOString() : "sample";
    default:
      return {};
  }
}

/** A type's sample `data`: its payload schema's sample, or an empty object for a type without a payload schema yet. */
export function sampleEventData(type: EventType): Record<string, unknown> {
  const payload = (EVENT_PAYLOADS as Partial<Record<EventType, TSchema>>)[type];
  return payload ? (sampleOf(payload) as Record<string, unknown>) : {};
}
