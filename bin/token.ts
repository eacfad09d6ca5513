// npm run -s token -- --sub alice [--provider provider_a|provider_b] [--wallet 0x…] [--expires-in 3600]
// Prints a JWT of the built-in sandbox issuer (SANDBOX_ISSUER), signed with the platform signing
// key that `npm start` verifies it with: SIGNING_KEY, or the key kept in DATA_DIR. Same environment
// as the server, so the issuer (PUBLIC_BASE_URL) and the key match.
import { parseArgs } from "node:util";
import { ConfigError, loadConfig } from "../lib/config.ts";
import { SANDBOX_PROVIDERS, signSandboxToken, type SandboxProvider } from "../lib/auth/sandbox-issuer.ts";
import { SigningKey } from "../lib/auth/signing-key.ts";

const USAGE = "usage: npm run -s token -- --sub <subject> [--provider provider_a|provider_b] [--wallet <address>] [--expires-in <seconds>]";

async function main(): Promise<string> {
  const { values } = parseArgs({
    options: { sub: { type: "string" }, provider: { type: "string" }, wallet: { type: "string" }, "expires-in": { type: "string" } },
    strict: true,
  });
  if (!values.sub) throw new Error(USAGE);
  const provider = values.provider ?? "provider_a";
  if (!SANDBOX_PROVIDERS.includes(provider as SandboxProvider)) throw new Error(`--provider must be one of ${SANDBOX_PROVIDERS.join(", ")}`);
  const expiresIn = values["expires-in"] === undefined ? undefined : Number(values["expires-in"]);
  if (expiresIn !== undefined && !(Number.isInteger(expiresIn) && expiresIn > 0)) throw new Error("--expires-in must be a positive number of seconds");
  const config = loadConfig(process.env);
  if (!config.sandboxIssuer) throw new Error("the sandbox issuer is off (SANDBOX_ISSUER=false, or NODE_ENV=production without SANDBOX_ISSUER=true)");
  if (!config.signingKey && config.dataDir.startsWith("memory://"))
    throw new Error("DATA_DIR=memory:// keeps the signing key in the server's memory only; set SIGNING_KEY for both");
  const signingKey = await SigningKey.load(config.signingKey, config.dataDir);
  return signSandboxToken(signingKey, config.publicBaseUrl, { sub: values.sub, provider: provider as SandboxProvider, ...(values.wallet !== undefined && { wallet: values.wallet }), ...(expiresIn !== undefined && { expiresInSeconds: expiresIn }) });
}

main().then(
  (token) => process.stdout.write(`${token}\n`),
  (error: Error) => {
    process.stderr.write(`${error instanceof ConfigError ? "configuration error" : "token"}: ${error.message.split("\n")[0]}\n`);
    process.exit(1);
  },
);
