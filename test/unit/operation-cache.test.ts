import * as federation from "@apollo/federation-internals";
import operations from "@apollo/federation-internals/dist/operations.js";
import { parse, type DocumentNode } from "graphql";
import { describe, expect, it } from "vitest";
import { reuseGatewayOperations } from "../../gateway/operation-cache.ts";

reuseGatewayOperations();
const schema = federation.buildSchema("type Query { me: User } type User { id: ID! name: String friend: User }");
/** As executeQueryPlan hands it over: a new document of the kept operation and fragment nodes. */
const asGateway = (document: DocumentNode): DocumentNode => ({ kind: document.kind, definitions: [...document.definitions] });

describe("reuseGatewayOperations", () => {
  it("is what the gateway calls: the package's export", () => {
    expect(federation.operationFromDocument).toBe(operations.operationFromDocument);
  });

  it("gives the same nodes on the same schema the same operation, equal to a fresh build", () => {
    const document = parse("query ($s: Boolean!) { me { ...F friend @skip(if: $s) { id } } } fragment F on User { id n: name }");
    const first = federation.operationFromDocument(schema, asGateway(document), { validate: false });
    expect(federation.operationFromDocument(schema, asGateway(document), { validate: false })).toBe(first);
    expect(first.toString()).toBe(federation.operationFromDocument(schema, document, { operationName: undefined as never }).toString());
  });

  it("builds again for other nodes, another schema, or any other options", () => {
    const text = "{ me { ...F } } fragment F on User { id }";
    const document = parse(text);
    const first = federation.operationFromDocument(schema, asGateway(document), { validate: false });
    expect(federation.operationFromDocument(schema, asGateway(document), { validate: false, operationName: undefined as never })).toBe(first);
    expect(federation.operationFromDocument(schema, asGateway(parse(text)), { validate: false })).not.toBe(first);
    const [operation] = document.definitions;
    const [, otherFragment] = parse("{ me { id } } fragment F on User { name }").definitions;
    expect(federation.operationFromDocument(schema, { kind: document.kind, definitions: [operation!, otherFragment!] }, { validate: false })).not.toBe(first);
    const other = federation.buildSchema("type Query { me: User } type User { id: ID! }");
    expect(federation.operationFromDocument(other, asGateway(document), { validate: false })).not.toBe(first);
    expect(federation.operationFromDocument(schema, asGateway(document))).not.toBe(federation.operationFromDocument(schema, asGateway(document)));
  });

  it("keeps no failure: an invalid operation throws every time", () => {
    const document = parse("{ me { ...F } } fragment F on Nobody { id }");
    expect(() => federation.operationFromDocument(schema, asGateway(document), { validate: false })).toThrow(/Unknown type "Nobody"/);
    expect(() => federation.operationFromDocument(schema, asGateway(document), { validate: false })).toThrow(/Unknown type "Nobody"/);
  });
});
