import { describe, expect, it } from "vitest";
import { GraphQLError } from "graphql";
import { isDatabaseUnavailable, isUnstorableText } from "../../lib/db/prisma-errors.ts";

describe("isDatabaseUnavailable", () => {
  it("recognises a database that is away, however wrapped", () => {
    expect(isDatabaseUnavailable(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }))).toBe(true);
    expect(isDatabaseUnavailable(new Error("Invalid `db.user.findUnique()` invocation\nDatabase error. Code: `57P01`. Message: `terminating connection due to administrator command`"))).toBe(true);
    expect(isDatabaseUnavailable(new GraphQLError("boom", { originalError: new Error("outer", { cause: { code: "08006" } }) }))).toBe(true);
    expect(isDatabaseUnavailable({ message: "x", cause: { kind: "DatabaseNotReachable" } })).toBe(true);
    // adapter-pg's names for a connection the server dropped (ECONNRESET) or that timed out, and a full server
    for (const kind of ["ConnectionClosed", "SocketTimeout", "TooManyConnections"]) expect(isDatabaseUnavailable({ message: "x", cause: { kind } }), kind).toBe(true);
    expect(isDatabaseUnavailable(new Error("Invalid `db.user.findFirst()` invocation:\n\nServer has closed the connection."))).toBe(true);
  });

  it("leaves the request's own faults and bugs alone", () => {
    expect(isDatabaseUnavailable(new Error("Database error. Code: `23505`. Message: `duplicate key`"))).toBe(false);
    expect(isDatabaseUnavailable(Object.assign(new Error("unique"), { code: "P2002" }))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError("cannot read properties of undefined"))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });
});

describe("isUnstorableText", () => {
  it("recognises PostgreSQL refusing a NUL character, however wrapped, and nothing else", () => {
    const refused = new Error("Invalid `db.member.findFirst()` invocation\nDatabase error. Code: `22021`. Message: `invalid byte sequence for encoding \"UTF8\": 0x00`");
    expect(isUnstorableText(refused)).toBe(true);
    expect(isUnstorableText(new GraphQLError("boom", { originalError: new Error("outer", { cause: refused }) }))).toBe(true);
    expect(isUnstorableText(new Error("Database error. Code: `23505`. Message: `duplicate key`"))).toBe(false);
    expect(isUnstorableText(undefined)).toBe(false);
  });
});
