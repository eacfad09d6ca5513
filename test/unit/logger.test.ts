import { describe, expect, it } from "vitest";
import { CREDENTIAL_HEADERS } from "../../lib/auth/credential-headers.ts";
import { CARD_REDACT_DEPTH, cardRedactPaths, REDACTED_CARD_FIELDS } from "../../lib/logger.ts";
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

  it("never writes a card's number, CVV, expiry, sealed columns or a proof's signature, at any depth down to CARD_REDACT_DEPTH", () => {
    const { lines, logger } = capturingLogger("trace");
    const secrets = { number: "4000021234567899", card_number: "4000029876543210", pan: "4000020000000000", cvv: "987", expiry_month: 11, expiry_year: 2087, number_encrypted: "v1.aaa.bbb.ccc", cvv_encrypted: "v1.ddd.eee.fff", signature: "0xsig" };
    // top level, a reveal's answer, GraphQL variables and a request body as they could be logged, and deeper
    logger.info(secrets, "flat");
    logger.debug({ data: { details: secrets } }, "a reveal's answer");
    logger.warn({ err: { request: { variables: { card_id: "crd_1", challenge_id: "cdc_1", ...secrets } } } }, "variables");
    logger.error({ req: { body: secrets, headers: { "user-agent": "curl/8" } } }, "a request body");
    logger.trace({ items: [{ ...secrets }] }, "in a list");
    let deepest: Record<string, unknown> = { ...secrets };
    for (let i = 0; i < CARD_REDACT_DEPTH; i++) deepest = { level: deepest };
    logger.info(deepest, "as deep as the paths go");
    const text = lines.join("");
    expect(lines).toHaveLength(6);
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

  it("names every card field at every depth from the top to CARD_REDACT_DEPTH wildcards", () => {
    const paths = cardRedactPaths();
    expect(paths).toHaveLength(REDACTED_CARD_FIELDS.length * (CARD_REDACT_DEPTH + 1));
    for (const field of ["number", "card_number", "pan", "cvv", "expiry_month", "expiry_year", "number_encrypted", "cvv_encrypted", "signature"]) {
      expect(paths).toContain(field);
      expect(paths).toContain(`*.${field}`);
      expect(paths).toContain(`${"*.".repeat(CARD_REDACT_DEPTH)}${field}`);
    }
  });
});
