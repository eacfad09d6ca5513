import type { OrgEnvironment } from "../lib/auth/orgid.ts";
import { DEFAULT_ENVIRONMENT_ID } from "../lib/auth/orgid.ts";
import type { JwtVerifier } from "../lib/auth/jwt-verifier.ts";

export interface ResolvedEnvironment {
  environment_id: string;
  /** the identity providers active in this environment */
  verifier: JwtVerifier;
}

/**
 * Where `x-platform-orgid` resolves. Until the identity service provides environments, only the
 * default environment (AUTH_PROVIDERS) exists; any named environment is unknown.
 */
export interface EnvironmentResolver {
  resolve(orgEnv: OrgEnvironment | null): Promise<ResolvedEnvironment | null>;
}

export class DefaultEnvironmentResolver implements EnvironmentResolver {
  constructor(private readonly verifier: JwtVerifier) {}

  async resolve(orgEnv: OrgEnvironment | null): Promise<ResolvedEnvironment | null> {
    return orgEnv === null ? { environment_id: DEFAULT_ENVIRONMENT_ID, verifier: this.verifier } : null;
  }
}
