// Platform authentication (spec 5.1), ProblemDetails (2.9, 7.1-7.2), personal access tokens and
// the OpenAPI document, end to end over real listeners (GET /v0/cli/config is in user/cli-config.test.ts).
import { createHash } from "node:crypto";
import { exportSPKI, generateKeyPair, importJWK, SignJWT, type CryptoKey, type JWTPayload } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generatePersonalAccessToken } from "../../../lib/auth/personal-access-token.ts";
import { platformRoutes } from "../../../rest-adapter/hosts/platform.ts";
import { platformWebhooks } from "../../../rest-adapter/webhooks/index.ts";
import { webhookDocumentation } from "../../../rest-adapter/webhooks/webhooks.ts";
import { TestIssuer } from "../../support/jwt-issuer.ts";
import { randomAddress, startTestPlatform, type TestPlatform } from "../../support/platform.ts";
import { registrationBody } from "../../support/registration.ts";
import { resolveRef } from "../../support/openapi-document.ts";

/**
 * One platform with several providers active at once:
 * - provider_a (`issuerA`): JWKS over loopback, no audience configured
 * - provider_b (`issuerPem`, RS256): pinned public key as PEM, audience "app-b" configured
 * - provider_b (`issuerJwk`): pinned public key as a JWK object (without `alg`), app_id_only mode
 * - provider_a (`issuerRot`): JWKS, used only by the key-rotation test so its cache is its own
 * `stranger` is a real issuer with a working JWKS that the platform does not accept.
 */
let platform: TestPlatform;
let issuerA: TestIssuer;
let issuerPem: TestIssuer;
let issuerJwk: TestIssuer;
let issuerRot: TestIssuer;
let stranger: TestIssuer;
let pem: string;
let base: string;

const APP_B = "app-b";

beforeAll(async () => {
  [issuerA, issuerPem, issuerJwk, issuerRot, stranger] = await Promise.all([
    TestIssuer.start({ issuer: "https://a.issuer.test" }),
    TestIssuer.start({ issuer: "https://b-pem.issuer.test", alg: "RS256" }),
    TestIssuer.start({ issuer: "https://b-jwk.issuer.test" }),
    TestIssuer.start({ issuer: "https://rotating.issuer.test" }),
    TestIssuer.start({ issuer: "https://stranger.issuer.test" }),
  ]);
  pem = await exportSPKI((await importJWK(issuerPem.publicJwk, issuerPem.alg, { extractable: true })) as CryptoKey);
  const { alg: _alg, kid: _kid, use: _use, ...bareJwk } = issuerJwk.publicJwk;
  platform = await startTestPlatform({
    AUTH_PROVIDERS: JSON.stringify([
      { name: "provider_a", issuer: issuerA.issuer, jwks_uri: issuerA.jwksUri },
      { name: "provider_b", issuer: issuerPem.issuer, public_key: pem, audience: APP_B },
      { name: "provider_b", issuer: issuerJwk.issuer, public_key: bareJwk, mode: "app_id_only" },
      { name: "provider_a", issuer: issuerRot.issuer, jwks_uri: issuerRot.jwksUri },
    ]),
  });
  base = platform.config.publicBaseUrl;
});

afterAll(async () => {
  await platform?.stop();
  await Promise.all([issuerA, issuerPem, issuerJwk, issuerRot, stranger].map((i) => i?.stop()));
});

const rand = () => Math.random().toString(36).slice(2);

async function register(jwt: string) {
  return platform.api("/v0/user/", { method: "POST", jwt, json: await registrationBody(jwt) });
}

/** A registered user of `issuer` (provider_a by default) with a long-lived token. */
async function createUser(issuer: TestIssuer = issuerA, claims: Record<string, unknown> = {}) {
  const sub = `sub-${rand()}`;
  const jwt = await issuer.sign({ sub, ...claims });
  const response = await register(jwt);
  const body = await response.json();
  if (response.status !== 201) throw new Error(`register: ${response.status} ${JSON.stringify(body)}`);
  return { jwt, sub, id: body.id as string, body };
}

/** Checks the spec 2.9 / 7.1 shape of a ProblemDetail and returns it. */
async function expectProblem(response: Response, status: number, code?: string, title?: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toContain("application/problem+json");
  const problem = await response.json();
  expect(problem.status).toBe(status);
  expect(typeof problem.title).toBe("string");
  expect(problem.instance).toBe(new URL(response.url).pathname);
  expect(problem.trace_id).toBeTruthy();
  expect(problem.trace_id).toBe(response.headers.get("x-request-id"));
  expect(problem.error_code).toMatch(/^[A-Z]{3,4}-\d{3}-\d{3}$/);
  expect(problem.error_code.split("-")[1]).toBe(String(status));
  expect(problem.type).toBe(`${base}/errors/${problem.error_code.toLowerCase()}`);
  if (code !== undefined) expect(problem.error_code).toBe(code);
  if (title !== undefined) expect(problem.title).toBe(title);
  return problem;
}

async function expectAuthFailed(response: Response) {
  return expectProblem(response, 401, "USR-401-001", "User Authentication Failed");
}

/** An authenticated request for a registered user answers 200 with that user. */
async function expectMe(response: Response, id: string) {
  const body = await response.json();
  expect(response.status, JSON.stringify(body)).toBe(200);
  expect(body.id).toBe(id);
  return body;
}

function me(jwt: string, headers: Record<string, string> = {}) {
  return platform.api("/v0/user/me", { jwt, headers });
}

function b64(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

/** Replaces one character in the middle of a JWT segment (never a padding-bit character). */
function flipMiddle(segment: string): string {
  const i = Math.floor(segment.length / 2);
  return segment.slice(0, i) + (segment[i] === "A" ? "B" : "A") + segment.slice(i + 1);
}

describe("JWT credential (spec 5.1.1-5.1.4)", () => {
  it("accepts a valid provider_a token: the user is created with auth_provider provider_a and the subject as auth_provider_id", async () => {
    const { jwt, sub, id, body } = await createUser(issuerA);
    expect(body).toMatchObject({ auth_provider: "provider_a", auth_provider_id: sub });
    await expectMe(await me(jwt), id);
  });

  it("refuses an expired token with 401 USR-401-001 (User Authentication Failed), even for an existing user", async () => {
    const { sub, id, jwt } = await createUser(issuerA);
    await expectMe(await me(jwt), id);
    const now = Math.floor(Date.now() / 1000);
    const expired = await issuerA.sign({ sub, iat: now - 120, exp: now - 60 });
    await expectAuthFailed(await me(expired));
    await expectAuthFailed(await register(await issuerA.sign({ iat: now - 120, exp: now - 1 })));
  });

  it("refuses a token whose signature or payload was tampered with", async () => {
    const { sub, id, jwt } = await createUser(issuerA);
    const [header, payload, signature] = jwt.split(".") as [string, string, string];
    await expectAuthFailed(await me(`${header}.${payload}.${flipMiddle(signature)}`));
    // same signature over a payload naming another subject
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString());
    const forged = b64({ ...claims, sub: `${sub}-other` });
    await expectAuthFailed(await me(`${header}.${forged}.${signature}`));
    // without a signature at all
    await expectAuthFailed(await me(`${header}.${payload}.`));
    await expectMe(await me(jwt), id);
  });

  it("refuses a token signed by a key the issuer does not publish (same kid or an unknown kid)", async () => {
    const { sub } = await createUser(issuerA);
    const { privateKey } = await generateKeyPair("ES256");
    await expectAuthFailed(await me(await issuerA.sign({ sub }, { key: privateKey })));
    await expectAuthFailed(await me(await issuerA.sign({ sub }, { key: privateKey, kid: "not-published" })));
  });

  it("refuses a token of an issuer that is not configured, although its signature is valid for that issuer", async () => {
    await expectAuthFailed(await me(await stranger.sign()));
    await expectAuthFailed(await register(await stranger.sign()));
  });

  it.each(["sub", "exp", "iss"])("refuses a token without the required %s claim", async (claim) => {
    const { sub, id } = await createUser(issuerA);
    await expectMe(await me(await issuerA.sign({ sub })), id);
    await expectAuthFailed(await me(await issuerA.sign({ sub, [claim]: undefined })));
  });

  it("refuses a token whose iss names another configured issuer than the key that signed it", async () => {
    // signed by provider_a's JWKS key but claiming the pinned-PEM issuer
    await expectAuthFailed(await me(await issuerA.sign({ iss: issuerPem.issuer, aud: APP_B })));
  });

  it("checks aud where the provider configures one: missing or wrong aud 401, right aud accepted", async () => {
    await expectAuthFailed(await register(await issuerPem.sign({ aud: undefined })));
    await expectAuthFailed(await register(await issuerPem.sign({ aud: "another-app" })));
    await expectAuthFailed(await register(await issuerPem.sign({ aud: ["another-app", "third-app"] })));
    const { id, jwt, body } = await createUser(issuerPem, { aud: APP_B });
    expect(body.auth_provider).toBe("provider_b");
    await expectMe(await me(jwt), id);
    await expectMe(await me(await issuerPem.sign({ sub: body.auth_provider_id, aud: ["another-app", APP_B] })), id);
  });

  it("does not require aud where the provider configures none: with or without any aud is accepted", async () => {
    const { id, sub } = await createUser(issuerA);
    await expectMe(await me(await issuerA.sign({ sub, aud: undefined })), id);
    await expectMe(await me(await issuerA.sign({ sub, aud: "whatever-audience" })), id);
  });

  it("refuses unsigned (alg none) tokens", async () => {
    const { sub } = await createUser(issuerA);
    const now = Math.floor(Date.now() / 1000);
    const claims = { sub, iss: issuerA.issuer, iat: now, exp: now + 600 };
    await expectAuthFailed(await me(`${b64({ alg: "none", typ: "JWT" })}.${b64(claims)}.`));
    await expectAuthFailed(await me(`${b64({ alg: "none", typ: "JWT", kid: issuerA.publicJwk.kid })}.${b64(claims)}.`));
  });

  it("refuses HS256 tokens, including one keyed with the provider's own public key (key confusion)", async () => {
    const { sub, body } = await createUser(issuerPem, { aud: APP_B });
    const now = Math.floor(Date.now() / 1000);
    const hs = (claims: JWTPayload, secret: string | Uint8Array) =>
      new SignJWT(claims).setProtectedHeader({ alg: "HS256", typ: "JWT" }).sign(typeof secret === "string" ? new TextEncoder().encode(secret) : secret);
    expect(body.auth_provider_id).toBe(sub);
    await expectAuthFailed(await me(await hs({ sub, iss: issuerPem.issuer, aud: APP_B, exp: now + 600 }, pem)));
    await expectAuthFailed(await me(await hs({ sub, iss: issuerA.issuer, exp: now + 600 }, "a-shared-secret-that-nobody-configured")));
  });

  it("accepts several providers at once and records which one issued the token; one subject at two issuers is two users", async () => {
    const sub = `shared-${rand()}`;
    const a = await register(await issuerA.sign({ sub }));
    const pemUser = await register(await issuerPem.sign({ sub, aud: APP_B }));
    const jwkUser = await register(await issuerJwk.sign({ sub, linked_accounts: [{ type: "email", address: "x@example.com" }] }));
    expect([a.status, pemUser.status, jwkUser.status]).toEqual([201, 201, 201]);
    const [aBody, pemBody, jwkBody] = await Promise.all([a.json(), pemUser.json(), jwkUser.json()]);
    expect(aBody).toMatchObject({ auth_provider: "provider_a", auth_provider_id: sub });
    expect(pemBody).toMatchObject({ auth_provider: "provider_b", auth_provider_id: sub });
    expect(jwkBody).toMatchObject({ auth_provider: "provider_b", auth_provider_id: sub });
    expect(new Set([aBody.id, pemBody.id, jwkBody.id]).size).toBe(3);
    await expectMe(await me(await issuerPem.sign({ sub, aud: APP_B })), pemBody.id);
    await expectMe(await me(await issuerA.sign({ sub })), aBody.id);
  });

  it("app_id_only mode: a token without linked_accounts (an access token) fails, an identity token passes", async () => {
    const sub = `idtok-${rand()}`;
    await expectAuthFailed(await register(await issuerJwk.sign({ sub })));
    const { id } = await createUser(issuerJwk, { sub, linked_accounts: [{ type: "wallet", address: randomAddress() }] });
    await expectAuthFailed(await me(await issuerJwk.sign({ sub })));
    await expectMe(await me(await issuerJwk.sign({ sub, linked_accounts: [] })), id);
  });

  it("picks up a rotated JWKS key without a restart; tokens of the old key keep working while it is published", async () => {
    const { sub, id, jwt: oldKeyJwt } = await createUser(issuerRot);
    const requestsBefore = issuerRot.jwksRequests;
    await issuerRot.rotate();
    const newKeyJwt = await issuerRot.sign({ sub });
    expect(JSON.parse(Buffer.from(newKeyJwt.split(".")[0]!, "base64url").toString()).kid).not.toBe(
      JSON.parse(Buffer.from(oldKeyJwt.split(".")[0]!, "base64url").toString()).kid,
    );
    // the cached JWKS does not know the new kid: the very next request fetches it again and verifies
    await expectMe(await me(newKeyJwt), id);
    expect(issuerRot.jwksRequests).toBe(requestsBefore + 1);
    await expectMe(await me(oldKeyJwt), id);
    await expectMe(await me(await issuerRot.sign({ sub })), id);
    expect(issuerRot.jwksRequests).toBe(requestsBefore + 1);
  });

  it("bounds the refetches that unknown kids cause: a flood of made-up kids costs the provider a few requests", async () => {
    const { sub, id } = await createUser(issuerRot);
    const requestsBefore = issuerRot.jwksRequests;
    const forged = await Promise.all(Array.from({ length: 20 }, (_, i) => issuerRot.sign({ sub }, { kid: `made-up-${i}` })));
    for (const jwt of forged) await expectAuthFailed(await me(jwt));
    // at most the bucket's burst (3) back to back; one more per 5 s after that
    expect(issuerRot.jwksRequests - requestsBefore).toBeLessThanOrEqual(3);
    await expectMe(await me(await issuerRot.sign({ sub })), id);
  });

  it("does not take the JWT from Authorization: Bearer (401 even for a valid token of an existing user)", async () => {
    const { jwt, id } = await createUser(issuerA);
    await expectAuthFailed(await platform.api("/v0/user/me", { headers: { authorization: `Bearer ${jwt}` } }));
    await expectAuthFailed(await platform.api("/v0/user/", { method: "POST", headers: { authorization: `Bearer ${jwt}` }, json: { primary_eoa_address: randomAddress(), chain_id: 8453 } }));
    await expectMe(await me(jwt), id);
  });

  it("answers 401 USR-401-001 without any credential and for a malformed token", async () => {
    await expectAuthFailed(await platform.api("/v0/user/me"));
    await expectAuthFailed(await me("not-a-jwt"));
    await expectAuthFailed(await me("a.b.c"));
  });

  it("answers 404 USR-404-001 for a valid token without a user", async () => {
    await expectProblem(await me(await issuerA.sign()), 404, "USR-404-001");
  });
});

describe("x-platform-orgid and x-platform-token (spec 5.1.6, 5.1.9)", () => {
  it.each(["abc", ":env", "org:", "a:b:c", "", ":", "org::env"])("answers 401 USR-401-002 to the malformed value %j even with a valid JWT", async (value) => {
    const { jwt } = await createUser(issuerA);
    const response = await me(jwt, { "x-platform-orgid": value });
    await expectProblem(response, 401, "USR-401-002", "Invalid Org ID Format");
  });

  it("answers 401 USR-401-002 to a malformed value on POST /v0/user/ and creates nothing", async () => {
    const jwt = await issuerA.sign();
    const response = await platform.api("/v0/user/", { method: "POST", jwt, headers: { "x-platform-orgid": "a:b:c" }, json: { primary_eoa_address: randomAddress(), chain_id: 8453 } });
    await expectProblem(response, 401, "USR-401-002");
    await expectProblem(await me(jwt), 404, "USR-404-001");
  });

  it("answers 401 USR-401-003 for a well-formed but unknown environment; absent means the default environment", async () => {
    const { jwt, id } = await createUser(issuerA);
    await expectProblem(await me(jwt, { "x-platform-orgid": "acme:production" }), 401, "USR-401-003");
    await expectMe(await me(jwt), id);
  });

  it("answers 401 USR-401-005 to x-platform-token, also next to a valid JWT", async () => {
    const { jwt } = await createUser(issuerA);
    await expectProblem(await platform.api("/v0/user/me", { headers: { "x-platform-token": "agt_something" } }), 401, "USR-401-005");
    await expectProblem(await me(jwt, { "x-platform-token": "agt_something" }), 401, "USR-401-005");
  });
});

describe("ProblemDetail envelope and correlation ids (spec 2.9, 7.1)", () => {
  it("has type {base_url}/errors/<code lower case>, instance = request path without the query, trace_id = x-request-id", async () => {
    const response = await platform.api("/v0/user/me?expand=wallets");
    const problem = await expectAuthFailed(response);
    expect(problem.instance).toBe("/v0/user/me");
    expect(problem.type).toBe(`${base}/errors/usr-401-001`);
    expect(problem.trace_id).toMatch(/^[0-9a-f]{32}$/);
    const again = await platform.api("/v0/user/me");
    expect((await again.json()).trace_id).not.toBe(problem.trace_id);
  });

  it("uses an incoming traceparent's trace id as trace_id and x-request-id", async () => {
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const response = await platform.api("/v0/user/me", { headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01`, "x-request-id": "ignored-when-traceparent" } });
    expect(response.headers.get("x-request-id")).toBe(traceId);
    expect((await expectAuthFailed(response)).trace_id).toBe(traceId);
  });

  it("uses an incoming x-request-id as trace_id when no valid traceparent arrives", async () => {
    const response = await platform.api("/v0/user/me", { headers: { "x-request-id": "req-123.abc:def", traceparent: "garbage" } });
    expect(response.headers.get("x-request-id")).toBe("req-123.abc:def");
    expect((await expectAuthFailed(response)).trace_id).toBe("req-123.abc:def");
  });

  it("puts x-request-id on successful responses too", async () => {
    const { jwt } = await createUser(issuerA);
    const response = await platform.api("/v0/user/me", { jwt, headers: { "x-request-id": "ok-request-1" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-request-id")).toBe("ok-request-1");
  });

  it("answers an unknown path with a 404 ProblemDetail", async () => {
    const problem = await expectProblem(await platform.api("/v0/does-not-exist?x=1"), 404, "GEN-404-001");
    expect(problem.instance).toBe("/v0/does-not-exist");
  });

  it("answers a wrong method on a known path with a 405 ProblemDetail and an Allow header", async () => {
    const del = await platform.api("/v0/user/me", { method: "DELETE" });
    expect(del.headers.get("allow")).toBe("GET");
    await expectProblem(del, 405, "GEN-405-001");
    const put = await platform.api("/v0/wallets", { method: "PUT", json: {} });
    expect(put.headers.get("allow")?.split(/,\s*/).sort()).toEqual(["GET", "POST"]);
    await expectProblem(put, 405, "GEN-405-001");
    const get = await platform.api("/v0/user/", { method: "GET" });
    expect(get.headers.get("allow")).toBe("POST");
    await expectProblem(get, 405, "GEN-405-001");
  });

  it("treats a trailing slash the same for routing and for 405", async () => {
    // the router ignores a trailing slash: GET /v0/user/me/ is the user; so DELETE there is 405 too
    const { jwt, id } = await createUser(issuerA);
    await expectMe(await platform.api("/v0/user/me/", { jwt }), id);
    const del = await platform.api("/v0/user/me/", { method: "DELETE", jwt });
    expect(del.headers.get("allow")).toBe("GET");
    await expectProblem(del, 405, "GEN-405-001");
    // and POST /v0/user/ is reachable as /v0/user, so GET /v0/user is a wrong method, not an unknown path
    const get = await platform.api("/v0/user", { jwt });
    expect(get.headers.get("allow")).toBe("POST");
    await expectProblem(get, 405, "GEN-405-001");
  });
});

describe("personal access tokens", () => {
  async function createPat(jwt: string, body: Record<string, unknown> = { name: "cli", scopes: ["read", "write"] }) {
    const response = await platform.api("/v0/user/me/personal-access-tokens", { method: "POST", jwt, json: body });
    const json = await response.json();
    expect(response.status, JSON.stringify(json)).toBe(201);
    return json;
  }

  const db = () => (platform.subgraphs.users as any).services.db;

  async function primaryEoa(jwt: string): Promise<number> {
    const wallets = await (await platform.api("/v0/wallets?is_eoa=true", { jwt })).json();
    return wallets.items[0].id;
  }

  it("creates a token shown once (plat_pat_ prefix), lists it without the secret, and stores only its SHA-256 hash", async () => {
    const { jwt, id: userId } = await createUser(issuerA);
    const created = await createPat(jwt, { name: "laptop", scopes: ["read"] });
    expect(created.token).toMatch(/^plat_pat_[0-9A-Za-z]{46}$/);
    expect(created).toMatchObject({ name: "laptop", scopes: ["read"], revoked_at: null, expires_at: null, token_prefix: created.token.slice(0, 15) });
    expect(Number.isInteger(created.created_at)).toBe(true);
    expect(created._links.revoke).toEqual({ href: `${base}/v0/user/me/personal-access-tokens/${created.id}`, method: "DELETE" });

    const list = await platform.api("/v0/user/me/personal-access-tokens", { jwt });
    expect(list.status).toBe(200);
    const listed = await list.json();
    expect(listed.items).toHaveLength(1);
    expect(listed.items[0]).toMatchObject({ id: created.id, name: "laptop", scopes: ["read"] });
    expect(listed.items[0]).not.toHaveProperty("token");
    expect(JSON.stringify(listed)).not.toContain(created.token);

    const row = await db().personalAccessToken.findUnique({ where: { id: created.id } });
    expect(row.user_id).toBe(userId);
    expect(row.token_hash).toBe(createHash("sha256").update(created.token).digest("hex"));
    for (const value of Object.values(row)) expect(String(value)).not.toContain(created.token.slice(15));
  });

  it("authenticates as the owning user via x-platform-pat on GET /v0/user/me and GET /v0/wallets", async () => {
    const { jwt, id } = await createUser(issuerA);
    const { token } = await createPat(jwt, { name: "ro", scopes: ["read"] });
    await expectMe(await platform.api("/v0/user/me", { pat: token }), id);
    const wallets = await platform.api("/v0/wallets", { pat: token });
    expect(wallets.status).toBe(200);
    const viaJwt = await (await platform.api("/v0/wallets", { jwt })).json();
    expect((await wallets.json()).items.map((w: { id: number }) => w.id)).toEqual(viaJwt.items.map((w: { id: number }) => w.id));
  });

  it("refuses a write with a read-only token (403 USR-403-001) and changes nothing; a write token may write", async () => {
    const { jwt } = await createUser(issuerA);
    const walletId = await primaryEoa(jwt);
    const readOnly = await createPat(jwt, { name: "ro", scopes: ["read"] });
    const response = await platform.api(`/v0/wallets/${walletId}`, { method: "PATCH", pat: readOnly.token, json: { nickname: "from-read-token" } });
    await expectProblem(response, 403, "USR-403-001");
    expect((await (await platform.api(`/v0/wallets/${walletId}`, { jwt })).json()).nickname).not.toBe("from-read-token");

    const writer = await createPat(jwt, { name: "rw", scopes: ["read", "write"] });
    const ok = await platform.api(`/v0/wallets/${walletId}`, { method: "PATCH", pat: writer.token, json: { nickname: "from-write-token" } });
    expect(ok.status).toBe(200);
    expect((await ok.json()).nickname).toBe("from-write-token");
  });

  it("stops accepting a revoked token on the next request (401 USR-401-004); revoking twice answers the same", async () => {
    const { jwt, id } = await createUser(issuerA);
    const { id: tokenId, token } = await createPat(jwt);
    await expectMe(await platform.api("/v0/user/me", { pat: token }), id);
    const revoke = await platform.api(`/v0/user/me/personal-access-tokens/${tokenId}`, { method: "DELETE", jwt });
    expect(revoke.status).toBe(200);
    const revoked = await revoke.json();
    expect(Number.isInteger(revoked.revoked_at)).toBe(true);
    await expectProblem(await platform.api("/v0/user/me", { pat: token }), 401, "USR-401-004");
    await expectProblem(await platform.api("/v0/wallets", { pat: token }), 401, "USR-401-004");
    const twice = await platform.api(`/v0/user/me/personal-access-tokens/${tokenId}`, { method: "DELETE", jwt });
    expect(twice.status).toBe(200);
    expect((await twice.json()).revoked_at).toBe(revoked.revoked_at);
  });

  it("refuses an expired token with 401 USR-401-004", async () => {
    const { jwt, id } = await createUser(issuerA);
    const { id: tokenId, token } = await createPat(jwt, { name: "short", scopes: ["read"], expires_in_days: 1 });
    await expectMe(await platform.api("/v0/user/me", { pat: token }), id);
    await db().personalAccessToken.update({ where: { id: tokenId }, data: { expires_at: new Date(Date.now() - 1000) } });
    await expectProblem(await platform.api("/v0/user/me", { pat: token }), 401, "USR-401-004");
  });

  it("does not let a token create, list or revoke tokens (403), whatever its scopes", async () => {
    const { jwt } = await createUser(issuerA);
    const { id: tokenId, token } = await createPat(jwt, { name: "rw", scopes: ["read", "write"] });
    await expectProblem(await platform.api("/v0/user/me/personal-access-tokens", { method: "POST", pat: token, json: { name: "more", scopes: ["read"] } }), 403, "USR-403-001");
    await expectProblem(await platform.api("/v0/user/me/personal-access-tokens", { pat: token }), 403, "USR-403-001");
    await expectProblem(await platform.api(`/v0/user/me/personal-access-tokens/${tokenId}`, { method: "DELETE", pat: token }), 403, "USR-403-001");
    const listed = await (await platform.api("/v0/user/me/personal-access-tokens", { jwt })).json();
    expect(listed.items).toHaveLength(1);
    expect(listed.items[0].revoked_at).toBeNull();
  });

  it("refuses a well-formed token that was never issued, and one with a broken checksum (401 USR-401-004)", async () => {
    const { jwt } = await createUser(issuerA);
    await expectProblem(await platform.api("/v0/user/me", { pat: generatePersonalAccessToken() }), 401, "USR-401-004");
    const { token } = await createPat(jwt);
    const last = token.at(-1)!;
    const broken = token.slice(0, -1) + (last === "a" ? "b" : "a");
    await expectProblem(await platform.api("/v0/user/me", { pat: broken }), 401, "USR-401-004");
    await expectProblem(await platform.api("/v0/user/me", { pat: "plat_pat_short" }), 401, "USR-401-004");
  });

  it("validates the creation body (422) and needs a credential (401)", async () => {
    const { jwt } = await createUser(issuerA);
    const bad = await platform.api("/v0/user/me/personal-access-tokens", { method: "POST", jwt, json: { name: "", scopes: ["admin"] } });
    expect(bad.status).toBe(422);
    const locs = (await bad.json()).detail.map((item: { loc: string[] }) => item.loc.join("."));
    expect(locs).toEqual(expect.arrayContaining(["body.name", "body.scopes.0"]));
    await expectAuthFailed(await platform.api("/v0/user/me/personal-access-tokens", { method: "POST", json: { name: "x", scopes: ["read"] } }));
  });
});

describe("GET /openapi.json", () => {
  it("is an OpenAPI 3.1 document with every route of platformRoutes under its method", async () => {
    const response = await platform.api("/openapi.json");
    expect(response.status).toBe(200);
    const document = await response.json();
    expect(document.openapi).toMatch(/^3\.1\.\d+$/);
    expect(document.info.version).toBe("0.35.2");
    const operations = Object.entries(document.paths as Record<string, Record<string, { operationId: string }>>).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => `${method.toUpperCase()} ${path} ${op.operationId}`),
    );
    const expected = platformRoutes.map((r) => `${r.method} ${r.path} ${r.operationId}`);
    // the webhook receivers are documented next to the routes (they exist whether or not secrets are configured)
    const receivers = platformWebhooks({ walletClaimWebhookSecrets: [], sandbox: false, kycWebhookToleranceSeconds: 300, bankingWebhookSecrets: [], bankingWebhookToleranceSeconds: 300 }).map(webhookDocumentation).map((r) => `${r.method} ${r.path} ${r.operationId}`);
    expect(operations.sort()).toEqual([...expected, ...receivers].sort());
    expect(new Set(expected).size).toBe(platformRoutes.length);
    for (const route of platformRoutes) expect(route.path.startsWith("/v0/") || route.path === "/health").toBe(true);
  });

  it("declares the PlatformJwt, PlatformPat and AgentToken schemes and uses them per operation, AgentToken with its scope on AgentTool and AgentAction operations", async () => {
    const document = await (await platform.api("/openapi.json")).json();
    expect(document.components.securitySchemes).toEqual({
      PlatformJwt: expect.objectContaining({ type: "apiKey", in: "header", name: "x-platform-jwt" }),
      PlatformPat: expect.objectContaining({ type: "apiKey", in: "header", name: "x-platform-pat" }),
      AgentToken: expect.objectContaining({ type: "apiKey", in: "header", name: "x-platform-token" }),
    });
    for (const route of platformRoutes) {
      const op = document.paths[route.path][route.method.toLowerCase()];
      const schemes = (op.security as Record<string, unknown>[]).flatMap((s) => Object.keys(s));
      const agentScope = route.agentScope ?? route.agentAction;
      expect(schemes.sort(), route.operationId).toEqual([...route.security, ...(agentScope ? ["AgentToken"] : [])].sort());
      if (agentScope) expect(op.security, route.operationId).toContainEqual({ AgentToken: [agentScope] });
      expect(op.tags, route.operationId).toEqual([route.tag, ...(route.agentScope ? ["AgentTool"] : route.agentAction ? ["AgentAction"] : [])]);
    }
    // spec 1: AgentTool operations are read-oriented; the agent writes are a tag of their own, documented in the tag list
    const tagged = (tag: string) => Object.values(document.paths as Record<string, Record<string, { tags: string[] }>>).flatMap((path) => Object.entries(path).filter(([, op]) => op.tags.includes(tag)).map(([method]) => method));
    expect(tagged("AgentTool").length).toBeGreaterThan(15);
    expect(new Set(tagged("AgentTool"))).toEqual(new Set(["get"]));
    expect(tagged("AgentAction")).toHaveLength(8);
    expect(tagged("AgentAction")).not.toContain("get");
    const tags = document.tags as { name: string; description?: string }[];
    expect(tags.find((tag) => tag.name === "AgentTool")?.description).toMatch(/every one a GET/);
    expect(tags.find((tag) => tag.name === "AgentAction")?.description).toMatch(/write scope/);
    const me = document.paths["/v0/user/me"].get;
    expect(me.security).toEqual(expect.arrayContaining([{ PlatformJwt: [] }, { PlatformPat: [] }]));
    expect(document.paths["/v0/user/"].post.security).toEqual([{ PlatformJwt: [] }]);
  });

  it("resolves every $ref to a component: a schema, or an error response operations share", async () => {
    const document = await (await platform.api("/openapi.json")).json();
    const refs: string[] = [];
    JSON.stringify(document, (key, value) => {
      if (key === "$ref") refs.push(value);
      return value;
    });
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) {
      expect(ref).toMatch(/^#\/components\/(schemas\/\w+|responses\/[\w.-]+)$/);
      expect(resolveRef(document, ref), ref).toBeDefined();
    }
  });
});
