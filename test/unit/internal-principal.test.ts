import { describe, expect, it } from "vitest";
import { signPrincipal, verifyPrincipal } from "../../lib/auth/internal-principal.ts";
import type { Principal } from "../../lib/auth/principal.ts";

const SECRET = "s".repeat(64);
const NOW = 1_700_000_000_000;
const USER: Principal = { kind: "user", via: "pat", environment_id: "default", user_id: "usr_1", pat: { token_id: "pat_1", scopes: ["read"] } };
const INTERNAL: Principal = { kind: "internal", service: "gateway" };

describe("signPrincipal / verifyPrincipal", () => {
  it("round-trips any principal within the validity window", () => {
    for (const principal of [USER, INTERNAL, { kind: "anonymous" } as Principal]) {
      const header = signPrincipal(principal, SECRET, NOW);
      expect(header.split(".")).toHaveLength(2);
      expect(verifyPrincipal(header, SECRET, NOW)).toEqual(principal);
      expect(verifyPrincipal(header, SECRET, NOW + 59_000)).toEqual(principal);
    }
  });

  it("refuses a header signed with another secret", () => {
    expect(verifyPrincipal(signPrincipal(INTERNAL, "other-secret-".repeat(4), NOW), SECRET, NOW)).toBeUndefined();
  });

  it("refuses a tampered payload (e.g. escalating a user to internal) and a tampered signature", () => {
    const header = signPrincipal(USER, SECRET, NOW);
    const [, signature] = header.split(".");
    const forged = Buffer.from(JSON.stringify({ principal: INTERNAL, issued_at: NOW })).toString("base64url");
    expect(verifyPrincipal(`${forged}.${signature}`, SECRET, NOW)).toBeUndefined();
    const [payload, sig] = header.split(".") as [string, string];
    const i = Math.floor(sig.length / 2);
    const flipped = sig.slice(0, i) + (sig[i] === "A" ? "B" : "A") + sig.slice(i + 1);
    expect(verifyPrincipal(`${payload}.${flipped}`, SECRET, NOW)).toBeUndefined();
    expect(verifyPrincipal(`${payload}.`, SECRET, NOW)).toBeUndefined();
    expect(verifyPrincipal(`${payload}.${sig}.extra`, SECRET, NOW)).toBeUndefined();
  });

  it("refuses a stale header (more than 60 s old) and one from too far in the future", () => {
    const header = signPrincipal(INTERNAL, SECRET, NOW);
    expect(verifyPrincipal(header, SECRET, NOW + 60_001)).toBeUndefined();
    expect(verifyPrincipal(header, SECRET, NOW - 60_001)).toBeUndefined();
    expect(verifyPrincipal(header, SECRET, NOW + 60_000)).toEqual(INTERNAL);
  });

  it("refuses an absent or shapeless header", () => {
    expect(verifyPrincipal(undefined, SECRET, NOW)).toBeUndefined();
    expect(verifyPrincipal("", SECRET, NOW)).toBeUndefined();
    expect(verifyPrincipal("no-dot", SECRET, NOW)).toBeUndefined();
  });
});
