import { describe, expect, it } from "vitest";
import { CREDENTIAL_HEADERS } from "../../lib/auth/credential-headers.ts";
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
});
