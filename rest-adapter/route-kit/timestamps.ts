import { getNamedType, isCompositeType, isScalarType, TypeInfo, visit, visitWithTypeInfo, BREAK, type DocumentNode, type GraphQLSchema } from "graphql";

/**
 * Spec 2.1: fields ending in `_at`, plus `timestamp`, `period_start` and `period_end`, are epoch
 * milliseconds by default and `YYYY-MM-DDTHH:MM:SSZ` with `X-Timestamp-Format: iso8601`, in
 * objects and arrays at any depth. Any other header value (`ISO8601` included: the spec names one
 * value, not a case-insensitive token) or none means milliseconds, and is never refused.
 */
export type TimestampFormat = "epoch_ms" | "iso8601";

export function timestampFormat(header: string | string[] | undefined): TimestampFormat {
  const value = Array.isArray(header) ? header[0] : header;
  return value === "iso8601" ? "iso8601" : "epoch_ms";
}

export function isTimestampField(name: string): boolean {
  return name.endsWith("_at") || name === "timestamp" || name === "period_start" || name === "period_end";
}

export function formatIso8601(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}

function convert(value: unknown, format: TimestampFormat): unknown {
  if (format === "iso8601") {
    if (typeof value === "number" && Number.isFinite(value)) return formatIso8601(value);
    if (value instanceof Date) return formatIso8601(value.getTime());
    if (typeof value === "string") {
      const ms = Date.parse(value);
      return Number.isNaN(ms) ? value : formatIso8601(ms);
    }
    return value;
  }
  if (value instanceof Date) return value.getTime();
  if (typeof value === "string") {
    const ms = Date.parse(value);
    return Number.isNaN(ms) ? value : ms;
  }
  return value;
}

/**
 * Returns `body` with every timestamp field in `format`; other fields are untouched. Copies only
 * what changes (the common epoch-ms answer, already numbers, comes back as the same object).
 */
export function applyTimestampFormat(body: unknown, format: TimestampFormat): unknown {
  if (Array.isArray(body)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < body.length; i++) {
      const next = applyTimestampFormat(body[i], format);
      if (next !== body[i]) (out ??= body.slice())[i] = next;
    }
    return out ?? body;
  }
  if (typeof body !== "object" || body === null || body instanceof Date) return body;
  const record = body as Record<string, unknown>;
  let out: Record<string, unknown> | undefined;
  // for…in, not Object.entries: a page of fifty transactions is a thousand objects, walked per response
  for (const key in record) {
    const value = record[key];
    const next = key === "_links" ? value : isTimestampField(key) && (typeof value !== "object" || value instanceof Date) ? convert(value, format) : applyTimestampFormat(value, format);
    if (next !== value) (out ??= { ...record })[key] = next;
  }
  return out ?? body;
}

/** Scalars whose values are never objects and, at a timestamp field, never anything but numbers: the epoch-ms pass leaves them as they are. */
const PLAIN_SCALARS = new Set(["String", "ID", "Boolean", "Int", "Float", "Timestamp"]);
const NUMERIC_SCALARS = new Set(["Int", "Float", "Timestamp"]);

/**
 * Whether every answer of `document` comes out of `applyTimestampFormat(…, "epoch_ms")` as it went
 * in, known from the schema once: each field answering under a timestamp name is a Timestamp (its
 * scalar serialises to epoch milliseconds, null or NaN, none of which the pass changes), an Int or
 * Float, or an object walked into, and no field is a free-form scalar (JSON, JSONObject), whose
 * objects may hold any key. The pass then only walks (a feed page: a thousand objects).
 */
export function answersInEpochMs(schema: GraphQLSchema, document: DocumentNode): boolean {
  const typeInfo = new TypeInfo(schema);
  let keeps = true;
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field(node) {
        const type = typeInfo.getType();
        const named = type && getNamedType(type);
        const timestamp = isTimestampField(node.alias?.value ?? node.name.value);
        const fits = named !== undefined && named !== null && (isCompositeType(named) || (isScalarType(named) ? (timestamp ? NUMERIC_SCALARS : PLAIN_SCALARS).has(named.name) : !timestamp));
        if (!fits) {
          keeps = false;
          return BREAK;
        }
        return undefined;
      },
    }),
  );
  return keeps;
}
