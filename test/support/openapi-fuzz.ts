import fc from "fast-check";

/**
 * Requests derived from an OpenAPI document, for the fuzz suite: each operation's path, query,
 * header and body parameters filled from their schemas, or with hostile values (wrong types,
 * missing and extra fields, huge and odd strings, numbers at the edges, malformed JSON, wrong
 * media types, oversized bodies, odd headers and credentials). A new route is covered as soon
 * as the document has it.
 */

type Schema = Record<string, unknown>;

export interface Operation {
  host: string;
  method: string;
  /** `{name}` template */
  path: string;
  parameters: { name: string; in: "path" | "query" | "header"; required?: boolean; schema?: Schema }[];
  body?: Schema;
  statuses: Set<number>;
  /** the operation takes a credential (security is not empty) */
  secured: boolean;
  /** the security schemes it names (PlatformJwt, DashboardSession, …) */
  schemes: string[];
}

export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** a short account of what was sent, for the failure message */
  label: string;
}

export function operationsOf(document: Record<string, any>, host: string): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, any>>)) {
    for (const method of ["get", "post", "put", "patch", "delete"]) {
      const operation = item[method];
      if (!operation) continue;
      const body = operation.requestBody?.content?.["application/json"]?.schema;
      const security: Record<string, unknown>[] = operation.security ?? document.security ?? [];
      operations.push({
        host,
        method: method.toUpperCase(),
        path,
        parameters: [...(item.parameters ?? []), ...(operation.parameters ?? [])].map((p: any) => resolve(document, p)),
        ...(body && { body: resolve(document, body) }),
        statuses: new Set(Object.keys(operation.responses ?? {}).map(Number).filter(Number.isFinite)),
        secured: security.some((entry) => Object.keys(entry).length > 0),
        schemes: [...new Set(security.flatMap((entry) => Object.keys(entry)))],
      });
    }
  }
  return operations;
}

function resolve(document: Record<string, any>, value: any): any {
  if (value && typeof value === "object" && typeof value.$ref === "string") {
    const target = value.$ref.replace(/^#\//, "").split("/").reduce((node: any, key: string) => node?.[key], document);
    return resolve(document, target);
  }
  return value;
}

/** Strings that have broken services: NUL, lone surrogates, RTL and zero-width marks, SQL and path tricks, huge. */
const ODD_STRINGS = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\ud800",
  "\udfff\ud800",
  "\u202e\u200b\ufeff",
  "😀👩‍👩‍👧",
  "' OR 1=1 --",
  "../../etc/passwd",
  "%00",
  "%2F..%2F",
  "${jndi:ldap://x}",
  "<script>alert(1)</script>",
  "null",
  "0x",
  "-0",
  "1e309",
  "9".repeat(400),
];

const EDGE_NUMBERS = [0, -0, -1, 1, 0.1, -0.000001, 2 ** 31, -(2 ** 31) - 1, 2 ** 53, 2 ** 53 + 2, -(2 ** 53) - 2, 1e21, 1e308, -1e308, 5e-324];

/** Any JSON value, hostile ones first among them. */
const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(null, true, false, ...ODD_STRINGS, ...EDGE_NUMBERS, [], {}),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ minLength: 5_000, maxLength: 20_000 }),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.array(fc.constantFrom<unknown>(1, "a", null), { maxLength: 5 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.constantFrom<unknown>(1, "a", null, {}), { maxKeys: 4 }),
  fc.constant(deep(60)),
);

function deep(levels: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = i % 2 ? [value] : { a: value };
  return value;
}

/** A value that fits `schema` as far as a generator can tell (patterns, formats, bounds, required fields). */
export function validValue(schema: Schema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 6) return anyJson;
  if ("const" in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return fc.constantFrom(...(schema.enum as unknown[]));
  for (const key of ["anyOf", "oneOf"] as const) {
    const options = schema[key];
    if (Array.isArray(options) && options.length > 0) return fc.oneof(...options.map((option) => validValue(option as Schema, depth + 1)));
  }
  if (Array.isArray(schema.allOf)) return validValue(Object.assign({}, ...(schema.allOf as Schema[])), depth + 1);
  const type = Array.isArray(schema.type) ? (schema.type as string[]).find((t) => t !== "null") : (schema.type as string | undefined);
  switch (type) {
    case "string":
      return stringFor(schema);
    case "integer":
      return fc.integer({ min: bound(schema.minimum, -1e6), max: bound(schema.maximum, 1e9) });
    case "number":
      return fc.double({ min: bound(schema.minimum, -1e6), max: bound(schema.maximum, 1e9), noNaN: true, noDefaultInfinity: true });
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array":
      return fc.array(validValue(schema.items as Schema | undefined, depth + 1), { minLength: (schema.minItems as number) ?? 0, maxLength: Math.min((schema.maxItems as number) ?? 3, 3) });
    case "object":
    case undefined: {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      if (Object.keys(properties).length === 0) return type === "object" ? fc.dictionary(fc.string({ maxLength: 8 }), anyJson, { maxKeys: 3 }) : anyJson;
      const required = new Set((schema.required as string[] | undefined) ?? []);
      return fc.record(Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, validValue(property, depth + 1)])), {
        requiredKeys: [...required].filter((name) => name in properties),
      });
    }
    default:
      return anyJson;
  }
}

function bound(value: unknown, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) ? value : fallback;
}

function stringFor(schema: Schema): fc.Arbitrary<string> {
  const minLength = (schema.minLength as number | undefined) ?? 0;
  const maxLength = Math.min((schema.maxLength as number | undefined) ?? 40, 200);
  if (typeof schema.pattern === "string") {
    try {
      return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length >= minLength && s.length <= ((schema.maxLength as number | undefined) ?? Infinity));
    } catch {
      // a pattern JavaScript cannot read: any string will do
    }
  }
  switch (schema.format) {
    case "date-time":
      return fc.date({ noInvalidDate: true, min: new Date(0), max: new Date(4e12) }).map((d) => d.toISOString());
    case "email":
      return fc.emailAddress();
    case "uuid":
      return fc.uuid();
    case "uri":
      return fc.webUrl();
  }
  return fc.string({ minLength, maxLength });
}

/** A value `schema` refuses, or one at its edges. */
export function hostileValue(schema: Schema | undefined): fc.Arbitrary<unknown> {
  const properties = (schema?.properties ?? {}) as Record<string, Schema>;
  const names = Object.keys(properties);
  if (names.length === 0) return anyJson;
  return fc.oneof(
    anyJson,
    // one field hostile, the rest valid
    fc.tuple(validValue(schema) as fc.Arbitrary<Record<string, unknown>>, fc.constantFrom(...names), anyJson).map(([valid, name, value]) => ({ ...(isObject(valid) ? valid : {}), [name]: value })),
    // a required field missing
    fc.tuple(validValue(schema) as fc.Arbitrary<Record<string, unknown>>, fc.constantFrom(...names)).map(([valid, name]) => {
      const copy = { ...(isObject(valid) ? valid : {}) };
      delete copy[name];
      return copy;
    }),
    // an extra field
    fc.tuple(validValue(schema), fc.string({ minLength: 1, maxLength: 12 }), anyJson).map(([valid, name, value]) => ({ ...(isObject(valid) ? valid : {}), [name]: value })),
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A path segment or query value: valid, hostile, or encoded oddly. */
function parameterValue(schema: Schema | undefined): fc.Arbitrary<string> {
  const text = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value) ?? "");
  return fc.oneof({ weight: 3, arbitrary: validValue(schema).map(text) }, { weight: 2, arbitrary: anyJson.map(text) });
}

/** Path segments sent as they are: bad percent-encoding, encoded separators, dot segments. */
const RAW_SEGMENTS = ["%", "%zz", "%E0%A4%A", "%C0%AF", "%2F", "..", ".", "%00", "a%2Fb", "%F0%9F%98%80"];

/** Lone surrogates have no UTF-8 form; a client cannot put them in a URL. */
function wellFormed(value: string): string {
  return value.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd");
}

/** Bytes that are not the JSON the route reads. */
const RAW_BODIES = fc.oneof(
  fc.constantFrom('{"a":', "[1,2", "{'a':1}", "nul", "\u0000", '"\\ud800"', "{}}", "1e999", '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{"x":1}}}'),
  fc.string({ maxLength: 200 }),
);

const MEDIA_TYPES = ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/json; charset=utf-16", "application/xml", "application/json-patch+json", "*/*"];

/** Header values fetch can send: printable latin-1, and some long ones. */
const headerText = fc.oneof(fc.constantFrom("", " ", "iso8601", "rfc3339", "null", "-1", "a".repeat(2_000), "\t x \t"), fc.string({ unit: "binary-ascii", maxLength: 60 }).map((s) => s.replace(/[\u0000-\u001f\u007f]/g, "")));

export interface Credentials {
  /** credential header sets to choose from (each a valid or a broken credential), besides none */
  choices: Record<string, string>[];
}

/** One request for `operation`: its parameters filled, its body well-formed, hostile or not JSON at all, with odd headers and one of the credentials. */
export function requestFor(operation: Operation, credentials: Credentials, bodyLimit: number): fc.Arbitrary<FuzzRequest> {
  const pathParameters = operation.parameters.filter((p) => p.in === "path");
  const queryParameters = operation.parameters.filter((p) => p.in === "query");
  const headerParameters = operation.parameters.filter((p) => p.in === "header" && !/^x-platform-(jwt|pat|token)$|^authorization$/i.test(p.name));

  const segment = (schema: Schema | undefined) =>
    fc.oneof({ weight: 5, arbitrary: parameterValue(schema).map((value) => encodeURIComponent(wellFormed(value))) }, { weight: 1, arbitrary: fc.constantFrom(...RAW_SEGMENTS) });
  const path = fc.tuple(...pathParameters.map((p) => segment(p.schema))).map((values) => pathParameters.reduce((at, p, i) => at.replace(`{${p.name}}`, values[i]!), operation.path));
  const query = fc.tuple(
    fc.subarray(queryParameters).chain((chosen) => fc.tuple(...chosen.map((p) => parameterValue(p.schema).map((value) => [p.name, value] as const)))),
    fc.array(fc.tuple(fc.string({ minLength: 1, maxLength: 10 }), fc.string({ maxLength: 20 })), { maxLength: 2 }),
  ).map(([known, extra]) => {
    const search = new URLSearchParams([...known, ...extra].map(([name, value]): [string, string] => [wellFormed(name), wellFormed(value)]));
    const text = search.toString();
    return text ? `?${text}` : "";
  });
  const headers = fc.tuple(
    fc.constantFrom<Record<string, string>>({}, ...credentials.choices),
    fc.subarray(headerParameters).chain((chosen) => fc.tuple(...chosen.map((p) => headerText.map((value) => [p.name, value] as const)))),
    fc.option(fc.tuple(fc.constantFrom("x-request-id", "traceparent", "x-forwarded-for", "accept", "accept-encoding", "if-none-match", "range"), headerText), { nil: undefined }),
  ).map(([credential, named, odd]) => ({ ...credential, ...Object.fromEntries(named), ...(odd && { [odd[0]]: odd[1] }) }));

  type Body = { body?: string; contentType?: string; kind: string };
  const bodies: fc.Arbitrary<Body>[] = [fc.constant({ kind: "none" })];
  if (operation.method !== "GET") {
    const json = (value: unknown, kind: string): Body => ({ body: JSON.stringify(value) ?? "null", contentType: "application/json", kind });
    bodies.push(
      validValue(operation.body).map((value) => json(value, "valid")),
      hostileValue(operation.body).map((value) => json(value, "hostile")),
      RAW_BODIES.map((body) => ({ body, contentType: "application/json", kind: "malformed" })),
      fc.tuple(validValue(operation.body), fc.constantFrom(...MEDIA_TYPES)).map(([value, contentType]) => ({ body: JSON.stringify(value) ?? "", contentType, kind: `as ${contentType}` })),
      fc.constant({ body: JSON.stringify({ padding: "x".repeat(bodyLimit + 1) }), contentType: "application/json", kind: "oversized" }),
    );
  }
  const body = operation.body ? fc.oneof({ weight: 1, arbitrary: bodies[0]! }, ...bodies.slice(1).map((arbitrary) => ({ weight: 2, arbitrary }))) : fc.oneof(...bodies);

  // beyond Node's 16 KiB of request line and headers the HTTP parser answers 431 itself, before any listener code
  const withinHeaderLimit = ({ path: at, query: search, headers: sent }: { path: string; query: string; headers: Record<string, string> }) => at.length + search.length + JSON.stringify(sent).length < 12_000;
  return fc.record({ path, query, headers, body }).filter(withinHeaderLimit).map(({ path: at, query: search, headers: sent, body: chosen }) => {
    const all = { ...sent, ...(chosen.contentType && { "content-type": chosen.contentType }) };
    return {
      method: operation.method,
      path: at + search,
      headers: all,
      ...(chosen.body !== undefined && { body: chosen.body }),
      label: `${operation.method} ${(at + search).slice(0, 200)} [${chosen.kind} body${chosen.body ? `: ${chosen.body.slice(0, 120)}` : ""}] headers ${JSON.stringify(all).slice(0, 200)}`,
    };
  });
}

/** `levels` arrays inside one another: what a recursive walk over a body cannot survive. */
export function nestedText(levels: number): string {
  return "[".repeat(levels) + "]".repeat(levels);
}

/** `text`, a JSON object, with `name` set to the JSON text `value` first (a duplicate when it had one). */
function withMember(text: string, name: string, value: string): string {
  const rest = text.trim().slice(1);
  return `{${JSON.stringify(name)}:${value}${rest.trim() === "}" ? "" : ","}${rest}`;
}

/** A value of another type than `schema` says. */
function mistyped(schema: Schema | undefined): unknown {
  const type = Array.isArray(schema?.type) ? (schema.type as string[]).find((t) => t !== "null") : (schema?.type as string | undefined);
  switch (type) {
    case "string":
      return 12_345;
    case "integer":
    case "number":
      return "12";
    case "boolean":
      return "true";
    case "array":
      return { 0: "x" };
    case "object":
      return ["x"];
    default:
      return { mistyped: [true] };
  }
}

/**
 * The same hostile bodies for every operation that takes a body (and every POST, PUT and PATCH
 * that takes none), not left to chance as requestFor's are: nested 10,000 deep inside a valid
 * body's field and as the whole body, over `bodyLimit`, each field (up to `maxFields`) of the
 * wrong type, sent in another charset, with a junk one, with a byte order mark, as latin-1
 * bytes, without a Content-Type, and with a key given twice. Path parameters are valid values.
 */
export function hostileBodies(operation: Operation, headers: Record<string, string>, bodyLimit: number, maxFields = 4): FuzzRequest[] {
  if (!operation.body && !["POST", "PUT", "PATCH"].includes(operation.method)) return [];
  const [sample] = fc.sample(fc.record({ path: fc.tuple(...operation.parameters.filter((p) => p.in === "path").map((p) => validValue(p.schema))), body: validValue(operation.body) }), { seed: 27, numRuns: 1 });
  const pathParameters = operation.parameters.filter((p) => p.in === "path");
  const path = pathParameters.reduce((at, p, i) => at.replace(`{${p.name}}`, encodeURIComponent(wellFormed(String(sample!.path[i])))), operation.path);
  const valid = isObject(sample!.body) ? sample!.body : {};
  const text = JSON.stringify(valid);
  const properties = Object.entries((operation.body?.properties ?? {}) as Record<string, Schema>);
  const [first] = Object.keys(valid);
  const json = "application/json";
  const bodies: [string, string | Buffer, string | undefined][] = [
    ["a field nested 10,000 deep", withMember(text, properties[0]?.[0] ?? "deep", nestedText(10_000)), json],
    ["a body nested 10,000 deep", nestedText(10_000), json],
    ["an object nested 10,000 deep", '{"a":'.repeat(10_000) + "1" + "}".repeat(10_000), json],
    ["oversized", withMember(text, "padding", JSON.stringify("x".repeat(bodyLimit + 1))), json],
    ...properties.slice(0, maxFields).map(([name, schema]): [string, string, string] => [`${name} mistyped`, JSON.stringify({ ...valid, [name]: mistyped(schema) }), json]),
    ["charset=utf-16 on UTF-8 bytes", text, `${json}; charset=utf-16`],
    ["UTF-16 bytes", Buffer.from(text, "utf16le"), `${json}; charset=utf-16le`],
    ["a junk charset", text, `${json}; charset=junk`],
    ["a byte order mark", Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]), json],
    ["latin-1 bytes", Buffer.from(withMember(text, "caf\u00e9", '"d\u00e9j\u00e0 vu"'), "latin1"), json],
    ["no Content-Type", Buffer.from(text), undefined],
    ["a key given twice", first ? withMember(text, first, '["twice"]') : '{"a":1,"a":2}', json],
  ];
  return bodies.map(([kind, body, contentType]) => {
    const sent = { ...headers, ...(contentType && { "content-type": contentType }) };
    return { method: operation.method, path, headers: sent, body, label: `${operation.method} ${path.slice(0, 200)} [${kind}: ${String(body).slice(0, 120)}] headers ${JSON.stringify(sent).slice(0, 200)}` };
  });
}
