import { appError } from "../errors/app-error.ts";
import type { AgentPrincipal, DashboardPrincipal, Principal, UserPrincipal } from "./principal.ts";
import type { AgentTokenScope } from "../vocabulary/agents.ts";

export interface AuthenticatedUser {
  user_id: string;
  environment_id: string;
  principal: UserPrincipal | AgentPrincipal;
  /**
   * The wallets the caller may read (an agent token restricted to some); null: every wallet. Only
   * fields tagged `@AgentWalletScoped()` are reached by a restricted token, and their resolvers
   * narrow to this.
   */
  wallet_ids: readonly number[] | null;
}

/**
 * The calling user, for operations of the JWT or PAT schemes. `write` operations need a JWT or
 * a PAT carrying the `write` scope (a read-only PAT gets 403); `write` includes `read`. An agent
 * token reads as its user where the gateway let it through (AgentTool fields within its scopes,
 * gateway/agent-access.ts), and writes only where the operation names `agentWrite` and the token
 * holds that scope (writing user strategies: write:strategies).
 */
export function requireUser(principal: Principal, access: "read" | "write", agentWrite?: AgentTokenScope): AuthenticatedUser {
  if (principal.kind === "agent") {
    // a write an agent may make names its scope here and in its field's @AgentTool (the gateway checks it there too)
    if (access === "write" && !(agentWrite && principal.scopes.includes(agentWrite))) throw appError("AGT-403-002", "Agent tokens cannot change anything here.");
    return { user_id: principal.user_id, environment_id: principal.environment_id, principal, wallet_ids: principal.wallet_ids.length > 0 ? principal.wallet_ids : null };
  }
  const caller = requireUserCredential(principal);
  if (caller.user_id === null) throw appError("USR-404-001");
  // `write` implies `read`, as with most providers' token scopes
  const granted = caller.pat?.scopes ?? [];
  if (caller.via === "pat" && !(granted.includes(access) || (access === "read" && granted.includes("write"))))
    throw appError("USR-403-001", `This personal access token lacks the ${access} scope.`);
  return { user_id: caller.user_id, environment_id: caller.environment_id, principal: caller, wallet_ids: null };
}

/** JWT-only operations (creating the user, issuing tokens): a PAT cannot mint more credentials. */
export function requireJwt(principal: Principal): UserPrincipal & { jwt: NonNullable<UserPrincipal["jwt"]> } {
  const caller = requireUserCredential(principal);
  if (caller.via !== "jwt" || !caller.jwt) throw appError("USR-403-001", "This operation needs x-platform-jwt.");
  return caller as UserPrincipal & { jwt: NonNullable<UserPrincipal["jwt"]> };
}

function requireUserCredential(principal: Principal): UserPrincipal {
  if (principal.kind === "anonymous") throw appError("USR-401-001", "The x-platform-jwt header is missing.");
  if (principal.kind === "agent") throw appError("AGT-403-002");
  if (principal.kind !== "user") throw appError("USR-403-001");
  return principal;
}

/**
 * Operations only our own services may call (the gateway, the adapter's webhook receivers, the
 * identity service resolving wallet owners); `service` names the one (or ones) allowed.
 */
export function requireInternal(principal: Principal, service?: string | readonly string[]): void {
  const allowed = service === undefined ? undefined : typeof service === "string" ? [service] : service;
  if (principal.kind !== "internal" || (allowed !== undefined && !allowed.includes(principal.service))) throw appError("USR-403-001");
}

/** Organisation operations: a dashboard session (membership is the subgraph's check). */
export function requireDashboard(principal: Principal): DashboardPrincipal {
  if (principal.kind === "dashboard") return principal;
  if (principal.kind === "api_key") throw appError("IDS-403-002", "Organisation operations need a dashboard session token, not an API key.");
  throw appError("IDS-401-002");
}
