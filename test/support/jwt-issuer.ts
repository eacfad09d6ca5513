import { createServer, type Server } from "node:http";
import { exportJWK, exportSPKI, generateKeyPair, SignJWT, type CryptoKey, type JWK, type JWTPayload } from "jose";

/**
 * A real identity provider for tests: its own key pair, its JWKS served over loopback HTTP, and
 * real signed tokens. `rotate()` switches to a new key (the JWKS then lists both).
 */
export class TestIssuer {
  private keys: { kid: string; privateKey: CryptoKey; publicJwk: JWK }[] = [];
  private server: Server | undefined;
  jwksUri = "";
  jwksRequests = 0;
  /** how long the JWKS endpoint takes to answer: a slow provider keeps requests in flight */
  jwksDelayMs = 0;

  private constructor(
    readonly issuer: string,
    readonly alg: "ES256" | "RS256",
  ) {}

  static async start(options: { issuer?: string; alg?: "ES256" | "RS256" } = {}): Promise<TestIssuer> {
    const issuer = new TestIssuer(options.issuer ?? `https://issuer-${Math.random().toString(36).slice(2)}.test`, options.alg ?? "ES256");
    await issuer.rotate();
    issuer.server = createServer((req, res) => {
      issuer.jwksRequests++;
      res.setHeader("content-type", "application/json");
      setTimeout(() => res.end(JSON.stringify({ keys: issuer.keys.map((k) => k.publicJwk) })), issuer.jwksDelayMs);
    });
    await new Promise<void>((resolve) => issuer.server!.listen(0, "127.0.0.1", resolve));
    const address = issuer.server.address() as { port: number };
    issuer.jwksUri = `http://127.0.0.1:${address.port}/.well-known/jwks.json`;
    return issuer;
  }

  async rotate(): Promise<void> {
    const { privateKey, publicKey } = await generateKeyPair(this.alg, { extractable: true });
    const kid = `k${this.keys.length + 1}`;
    this.keys.unshift({ kid, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg: this.alg, use: "sig" } });
  }

  async publicKeyPem(): Promise<string> {
    const { publicKey } = await generateKeyPair(this.alg, { extractable: true });
    return exportSPKI(publicKey);
  }

  get publicJwk(): JWK {
    return this.keys[0]!.publicJwk;
  }

  /** A token with `sub`, `iss`, `exp` (+1h) unless overridden; pass `exp: undefined` etc. to drop a claim. */
  async sign(claims: JWTPayload & Record<string, unknown> = {}, options: { key?: CryptoKey; kid?: string } = {}): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    const payload: Record<string, unknown> = { sub: `user-${Math.random().toString(36).slice(2)}`, iss: this.issuer, iat: now, exp: now + 3600, ...claims };
    for (const [key, value] of Object.entries(payload)) if (value === undefined) delete payload[key];
    return new SignJWT(payload as JWTPayload)
      .setProtectedHeader({ alg: this.alg, kid: options.kid ?? this.keys[0]!.kid })
      .sign(options.key ?? this.keys[0]!.privateKey);
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
