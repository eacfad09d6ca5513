import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { bodyDigest, PRINCIPAL_LIFETIME_MS, PrincipalVerifier, signPrincipal, type PrincipalAudience } from "../../lib/auth/internal-principal.ts";
import type { Principal } from "../../lib/auth/principal.ts";
import { MemoryReplayStore } from "../../lib/auth/replay-store.ts";

const SECRET = "s".repeat(64);
const NOW = 1_700_000_000_000;
const USER: Principal = { kind: "user", via: "pat", environment_id: "default", user_id: "usr_1", pat: { token_id: "pat_1", scopes: ["read"] } };
const INTERNAL: Principal = { kind: "internal", service: "gateway" };
const BODY = JSON.stringify({ query: "{ me { id } }", variables: {} });

const sign = (principal: Principal, audience: PrincipalAudience = "users", body = BODY, now = NOW, clientAddress?: string) =>
  signPrincipal(principal, { secret: SECRET, audience, body, now, ...(clientAddress !== undefined && { clientAddress }) });
const verifier = (audience: PrincipalAudience = "users", secret = SECRET) => new PrincipalVerifier(secret, audience);

describe("signPrincipal / PrincipalVerifier", () => {
  it("round-trips any principal for its audience and body, within its lifetime", async () => {
    for (const principal of [USER, INTERNAL, { kind: "anonymous" } as Principal]) {
      const header = sign(principal);
      expect(header.split(".")).toHaveLength(2);
      expect(await verifier().verify(header, bodyDigest(BODY), NOW)).toEqual({ principal });
      expect(await verifier().verify(sign(principal), bodyDigest(BODY), NOW + PRINCIPAL_LIFETIME_MS)).toEqual({ principal });
    }
  });

  it("carries the client address, bound like the rest", async () => {
    const header = sign({ kind: "anonymous" }, "gateway", BODY, NOW, "203.0.113.7");
    expect(await verifier("gateway").verify(header, bodyDigest(BODY), NOW)).toEqual({ principal: { kind: "anonymous" }, client_address: "203.0.113.7" });
  });

  it("carries the client's User-Agent, under the signature", async () => {
    const header = signPrincipal({ kind: "anonymous" }, { secret: SECRET, audience: "finance", body: BODY, now: NOW, clientAddress: "203.0.113.7", userAgent: "wallet-app/2.1" });
    expect(await verifier("finance").verify(header, bodyDigest(BODY), NOW)).toEqual({ principal: { kind: "anonymous" }, client_address: "203.0.113.7", user_agent: "wallet-app/2.1" });
  });

  it("carries the route's credential mode for the gateway, under the signature; an unknown mode reads as none", async () => {
    const header = signPrincipal({ kind: "anonymous" }, { secret: SECRET, audience: "gateway", body: BODY, now: NOW, clientAddress: "203.0.113.7", credentials: "optional" });
    expect(await verifier("gateway").verify(header, bodyDigest(BODY), NOW)).toEqual({ principal: { kind: "anonymous" }, client_address: "203.0.113.7", credentials: "optional" });
    // changing the mode breaks the MAC
    const [payload, mac] = header.split(".") as [string, string];
    const envelope = JSON.parse(Buffer.from(payload, "base64url").toString());
    const altered = Buffer.from(JSON.stringify({ ...envelope, credentials: "internal" })).toString("base64url");
    expect(await verifier("gateway").verify(`${altered}.${mac}`, bodyDigest(BODY), NOW)).toBeUndefined();
    // a validly signed envelope with a mode we do not know carries none (the gateway then refuses it)
    const key = new PrincipalVerifier(SECRET, "gateway");
    const odd = signPrincipal({ kind: "anonymous" }, { secret: SECRET, audience: "gateway", body: BODY, now: NOW, credentials: "everything" as never });
    expect(await key.verify(odd, bodyDigest(BODY), NOW)).toEqual({ principal: { kind: "anonymous" } });
  });

  it("refuses a principal signed for another audience (a capture replayed at another service)", async () => {
    const forUsers = sign(INTERNAL, "users");
    for (const audience of ["finance", "identity", "agents", "gateway"] as const) expect(await verifier(audience).verify(forUsers, bodyDigest(BODY), NOW)).toBeUndefined();
    expect(await verifier("users").verify(forUsers, bodyDigest(BODY), NOW)).toEqual({ principal: INTERNAL });
  });

  it("refuses a principal sent with another body (a capture replayed with another operation)", async () => {
    const header = sign(USER);
    const other = JSON.stringify({ query: "mutation { delete_everything }", variables: {} });
    expect(await verifier().verify(header, bodyDigest(other), NOW)).toBeUndefined();
    expect(await verifier().verify(header, bodyDigest(`${BODY} `), NOW)).toBeUndefined();
    expect(await verifier().verify(header, bodyDigest(""), NOW)).toBeUndefined();
  });

  it("refuses a stale principal, and one from too far in the future", async () => {
    expect(await verifier().verify(sign(INTERNAL), bodyDigest(BODY), NOW + PRINCIPAL_LIFETIME_MS + 1)).toBeUndefined();
    expect(await verifier().verify(sign(INTERNAL), bodyDigest(BODY), NOW - 5_001)).toBeUndefined();
    expect(await verifier().verify(sign(INTERNAL), bodyDigest(BODY), NOW - 5_000)).toEqual({ principal: INTERNAL });
    expect(PRINCIPAL_LIFETIME_MS).toBeLessThanOrEqual(15_000);
  });

  it("accepts each principal once (an exact replay within its lifetime is refused)", async () => {
    const guard = verifier();
    const header = sign(USER);
    expect(await guard.verify(header, bodyDigest(BODY), NOW)).toEqual({ principal: USER });
    expect(await guard.verify(header, bodyDigest(BODY), NOW + 1)).toBeUndefined();
    // a fresh signature over the same body is another request
    expect(await guard.verify(sign(USER), bodyDigest(BODY), NOW + 2)).toEqual({ principal: USER });
  });

  it("forgets used principals once they are stale anyway", async () => {
    const store = new MemoryReplayStore();
    const guard = new PrincipalVerifier(SECRET, "users", store);
    for (let i = 0; i < 100; i++) expect(await guard.verify(sign(USER, "users", BODY, NOW + i), bodyDigest(BODY), NOW + i)).toBeDefined();
    const later = NOW + 10 * PRINCIPAL_LIFETIME_MS;
    expect(await guard.verify(sign(USER, "users", BODY, later), bodyDigest(BODY), later)).toBeDefined();
    expect((store as unknown as { seen: Map<string, number> }).seen.size).toBe(1);
  });

  it("refuses a principal signed with another secret", async () => {
    expect(await verifier("users", "other-secret-".repeat(4)).verify(sign(INTERNAL), bodyDigest(BODY), NOW)).toBeUndefined();
  });

  it("refuses a tampered payload (escalating a user to internal, moving the audience) and a tampered signature", async () => {
    const header = sign(USER);
    const [payload, signature] = header.split(".") as [string, string];
    const envelope = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
    const reencode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
    expect(await verifier().verify(`${reencode({ ...envelope, principal: INTERNAL })}.${signature}`, bodyDigest(BODY), NOW)).toBeUndefined();
    expect(await verifier("finance").verify(`${reencode({ ...envelope, aud: "finance" })}.${signature}`, bodyDigest(BODY), NOW)).toBeUndefined();
    expect(await verifier().verify(`${reencode({ ...envelope, iat: NOW + 60_000 })}.${signature}`, bodyDigest(BODY), NOW + 60_000)).toBeUndefined();
    const i = Math.floor(signature.length / 2);
    const flipped = signature.slice(0, i) + (signature[i] === "A" ? "B" : "A") + signature.slice(i + 1);
    expect(await verifier().verify(`${payload}.${flipped}`, bodyDigest(BODY), NOW)).toBeUndefined();
    expect(await verifier().verify(`${payload}.`, bodyDigest(BODY), NOW)).toBeUndefined();
    expect(await verifier().verify(`${header}.extra`, bodyDigest(BODY), NOW)).toBeUndefined();
  });

  it("MACs with a key derived per audience, never with INTERNAL_SECRET itself", async () => {
    const [payload] = sign(INTERNAL, "identity").split(".") as [string];
    const rootMac = createHmac("sha256", SECRET).update(payload).digest("base64url");
    expect(await verifier("identity").verify(`${payload}.${rootMac}`, bodyDigest(BODY), NOW)).toBeUndefined();
  });

  it("refuses an absent or shapeless header", async () => {
    expect(await verifier().verify(undefined, bodyDigest(BODY), NOW)).toBeUndefined();
    expect(await verifier().verify("", bodyDigest(BODY), NOW)).toBeUndefined();
    expect(await verifier().verify("no-dot", bodyDigest(BODY), NOW)).toBeUndefined();
  });
});
