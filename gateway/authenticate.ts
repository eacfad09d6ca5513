import { parse } from "graphql";
import { parseOrgId } from "../lib/auth/orgid.ts";
import { ANONYMOUS, type Principal } from "../lib/auth/principal.ts";
import { appError, fromExtensions } from "../lib/errors/app-error.ts";
import type { RequestContext } from "../lib/graphql/context.ts";
import type { EnvironmentResolver } from "./environments.ts";
import type { SubgraphClient } from "./subgraph-client.ts";

export type CredentialHeaders = Record<string, string | string[] | undefined>;

const JWT_PRINCIPAL = parse(`query ($environment_id: String!, $issuer: String!, $subject: String!) {
  principal: _principal_for_jwt(environment_id: $environment_id, issuer: $issuer, subject: $subject) { user_id }
}`);
const PAT_PRINCIPAL = parse(`query ($token: String!) {
  principal: _principal_for_pat(token: $token) { user_id environment_id token_id scopes }
}`);

const GATEWAY_CONTEXT: Omit<RequestContext, "trace_id"> = { principal: { kind: "internal", service: "gateway" } };

function header(headers: CredentialHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Positive results only: a subject's user id never changes, but a missing user may be created any time. */
class UserIdCache {
  private readonly entries = new Map<string, string>();
  constructor(private readonly max = 10_000) {}
  get(key: string): string | undefined {
    return this.entries.get(key);
  }
  set(key: string, userId: string): void {
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, userId);
  }
}

/**
 * Verifies a request's credentials once, for the whole query plan (spec 5.1): `x-platform-orgid`
 * picks the environment, `x-platform-jwt` is verified against its providers, `x-platform-pat` is
 * looked up, `x-platform-token` is refused until agent tokens exist. `Authorization` is not a
 * platform credential and is ignored here.
 */
export class Authenticator {
  private readonly userIds = new UserIdCache();

  constructor(
    private readonly environments: EnvironmentResolver,
    private readonly users: SubgraphClient,
  ) {}

  async authenticate(headers: CredentialHeaders, traceId: string): Promise<Principal> {
    const orgEnv = parseOrgId(header(headers, "x-platform-orgid"));
    const environment = await this.environments.resolve(orgEnv);
    if (!environment) throw appError("USR-401-003");
    if (header(headers, "x-platform-token") !== undefined) throw appError("USR-401-005");

    const jwt = header(headers, "x-platform-jwt");
    if (jwt !== undefined) {
      const verified = await environment.verifier.verify(jwt);
      const identity = { environment_id: environment.environment_id, issuer: verified.issuer, subject: verified.subject };
      const key = `${identity.environment_id}\n${identity.issuer}\n${identity.subject}`;
      let userId = this.userIds.get(key) ?? null;
      if (userId === null) {
        const { principal } = await this.lookup(JWT_PRINCIPAL, identity, traceId);
        userId = (principal as { user_id: string | null }).user_id;
        if (userId !== null) this.userIds.set(key, userId);
      }
      return {
        kind: "user",
        via: "jwt",
        environment_id: environment.environment_id,
        user_id: userId,
        jwt: { provider: verified.provider, issuer: verified.issuer, subject: verified.subject },
      };
    }

    const pat = header(headers, "x-platform-pat");
    if (pat !== undefined) {
      const { principal } = await this.lookup(PAT_PRINCIPAL, { token: pat }, traceId);
      const found = principal as { user_id: string; environment_id: string; token_id: string; scopes: string[] } | null;
      // the token names its user's environment; an explicit x-platform-orgid must agree with it
      if (!found || (orgEnv !== null && found.environment_id !== environment.environment_id)) throw appError("USR-401-004");
      return { kind: "user", via: "pat", environment_id: found.environment_id, user_id: found.user_id, pat: { token_id: found.token_id, scopes: found.scopes } };
    }
    return ANONYMOUS;
  }

  private async lookup(document: ReturnType<typeof parse>, variables: Record<string, unknown>, traceId: string): Promise<Record<string, unknown>> {
    const result = await this.users.execute(document, variables, { ...GATEWAY_CONTEXT, trace_id: traceId });
    if (result.errors?.length) {
      const error = result.errors[0]!;
      throw fromExtensions(error.extensions) ?? appError("GEN-503-001", "The users service could not resolve the credential.", { cause: error });
    }
    return result.data as Record<string, unknown>;
  }
}
