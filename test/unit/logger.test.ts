import { describe, expect, it } from "vitest";
import { CREDENTIAL_HEADERS } from "../../lib/auth/credential-headers.ts";
import { censorCardFieldsInLine } from "../../lib/logger.ts";
import { capturingLogger } from "../support/log-capture.ts";

describe("log redaction", () => {
  it("never writes a credential header's value, whichever credential it is", () => {
    const { lines, logger } = capturingLogger("info");
    const headers = Object.fromEntries([...CREDENTIAL_HEADERS, "x-internal-principal", "cookie"].map((name) => [name, `secret-of-${name}`]));
    logger.info({ req: { headers: { ...headers, "user-agent": "curl/8" } } }, "request");
    const text = lines.join("");
    for (const name of ["x-platform-jwt", "x-platform-pat", "x-platform-token", "x-platform-pint-token", "authorization", "x-internal-principal", "cookie"])
      expect(text).not.toContain(`secret-of-${name}`);
    expect(text).toContain("[redacted]");
    // not secrets: the organisation id and ordinary headers stay readable
    expect(text).toContain("secret-of-x-platform-orgid");
    expect(text).toContain("curl/8");
  });

  it("never writes a card's number, CVV, expiry, sealed columns or a proof's signature, at any depth", () => {
    const { lines, logger } = capturingLogger("trace");
    const secrets = { number: "4000021234567899", card_number: "4000029876543210", pan: "4000020000000000", cvv: "987", expiry_month: 11, expiry_year: 2087, number_encrypted: "v1.aaa.bbb.ccc", cvv_encrypted: "v1.ddd.eee.fff", signature: "0xsig" };
    // top level, a reveal's answer, GraphQL variables and a request body as they could be logged, and deeper
    logger.info(secrets, "flat");
    logger.debug({ data: { details: secrets } }, "a reveal's answer");
    logger.warn({ err: { request: { variables: { card_id: "crd_1", challenge_id: "cdc_1", ...secrets } } } }, "variables");
    logger.error({ req: { body: secrets, headers: { "user-agent": "curl/8" } } }, "a request body");
    logger.trace({ items: [{ ...secrets }] }, "in a list");
    let deepest: Record<string, unknown> = { ...secrets };
    for (let i = 0; i < 20; i++) deepest = { level: deepest };
    logger.info(deepest, "twenty levels down");
    // in an Error's own properties, and in a child logger's bindings
    logger.error({ err: Object.assign(new Error("declined"), { card: { ...secrets } }) }, "an error");
    logger.child({ card: { ...secrets } }).info("a child's bindings");
    const text = lines.join("");
    expect(lines).toHaveLength(8);
    for (const [field, value] of Object.entries(secrets)) {
      if (typeof value === "string") expect(text).not.toContain(value);
      expect(text).not.toMatch(new RegExp(`"${field}":(?!"\\[redacted\\]")`));
    }
    for (const line of lines) expect(line).toContain('"[redacted]"');
    // what is not a card secret stays readable
    expect(text).toContain("crd_1");
    expect(text).toContain("cdc_1");
    expect(text).toContain("curl/8");
  });

  it("writes a line naming no card field as it is, and one that only mentions a field's name in a value unchanged", () => {
    const plain = '{"level":30,"msg":"request completed","reqId":"req-1"}\n';
    expect(censorCardFieldsInLine(plain)).toBe(plain);
    const mention = `${JSON.stringify({ level: 30, msg: 'the body held "number": 42' })}\n`;
    expect(censorCardFieldsInLine(mention)).toBe(mention);
    expect(JSON.parse(censorCardFieldsInLine('{"level":30,"items":[{"pan":"4000020000000000"}],"n":1}\n'))).toEqual({ level: 30, items: [{ pan: "[redacted]" }], n: 1 });
  });

  it("withholds a line naming a card field that is not JSON, rather than write it uncensored", () => {
    const line = censorCardFieldsInLine('{"pan":"4000020000000000"\n');
    expect(line).not.toContain("4000020000000000");
    expect(JSON.parse(line).msg).toMatch(/withheld/);
  });
});
