import { describe, expect, it } from "vitest";
import { GraphQLError } from "graphql";
import { isDatabaseUnavailable, isUnstorableText } from "../../lib/db/prisma-errors.ts";
import { asAppError } from "../../rest-adapter/route-kit/problem.ts";

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

  it("counts our deadlines passing as the database being unavailable, not as a fault of the request", () => {
    // the server's statement_timeout, lock_timeout and idle_in_transaction_session_timeout
    for (const code of ["57014", "55P03", "25P03"]) {
      expect(isDatabaseUnavailable({ message: "x", code }), code).toBe(true);
      expect(isDatabaseUnavailable(new Error(`Invalid \`db.wallet.findFirst()\` invocation:\n\nDatabase error. Code: \`${code}\`. Message: \`canceling statement\``)), code).toBe(true);
    }
    // pg's query_timeout (a frozen server), and what is queued behind on the connection it closes
    expect(isDatabaseUnavailable(new Error("Invalid `db.user.findUnique()` invocation:\n\nQuery read timeout"))).toBe(true);
    expect(isDatabaseUnavailable(new Error("Client was closed and is not queryable"))).toBe(true);
    // pg's connect timeout: the statement pipeline opening a connection to a frozen server
    expect(isDatabaseUnavailable(new Error("timeout expired"))).toBe(true);
    expect(isDatabaseUnavailable(new GraphQLError("timeout expired", { originalError: new Error("timeout expired") }))).toBe(true);
    // Prisma's interactive transactions: no connection within maxWait, or outliving their timeout
    expect(isDatabaseUnavailable(new Error("Transaction API error: Unable to start a transaction in the given time."))).toBe(true);
    expect(isDatabaseUnavailable(new Error("Transaction API error: Transaction already closed: A query cannot be executed on an expired transaction. The timeout for this transaction was 5000 ms, however 5012 ms passed since the start of the transaction."))).toBe(true);
  });

  it("leaves the request's own faults and bugs alone", () => {
    expect(isDatabaseUnavailable(new Error("Database error. Code: `23505`. Message: `duplicate key`"))).toBe(false);
    expect(isDatabaseUnavailable(Object.assign(new Error("unique"), { code: "P2002" }))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError("cannot read properties of undefined"))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });
});

describe("asAppError", () => {
  it("makes a database failure raised outside GraphQL the caller's 503 with Retry-After, and anything else a 500", () => {
    expect(asAppError(new Error("Query read timeout"))).toMatchObject({ code: "GEN-503-001", retryAfter: 1 });
    expect(asAppError(new TypeError("cannot read properties of undefined"))).toMatchObject({ code: "GEN-500-001" });
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
