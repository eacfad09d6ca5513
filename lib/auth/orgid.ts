import { appError } from "../errors/app-error.ts";

export interface OrgEnvironment {
  org_id: string;
  env_id: string;
}

/**
 * `x-platform-orgid` (spec 5.1.6): exactly `<org-id>:<env-id>`, both halves non-empty, one
 * colon. Absent means the default environment (null); anything else present is USR-401-002.
 */
export function parseOrgId(header: string | undefined): OrgEnvironment | null {
  if (header === undefined) return null;
  const parts = header.split(":");
  if (parts.length !== 2 || parts[0] === "" || parts[1] === "" || parts.some((p) => p.trim() !== p))
    throw appError("USR-401-002");
  return { org_id: parts[0]!, env_id: parts[1]! };
}

export const DEFAULT_ENVIRONMENT_ID = "default";

/** How users are scoped: the default environment, or `<org-id>:<env-id>`. */
export function environmentId(orgEnv: OrgEnvironment | null): string {
  return orgEnv === null ? DEFAULT_ENVIRONMENT_ID : `${orgEnv.org_id}:${orgEnv.env_id}`;
}

/** The inverse of `environmentId`: null for the default environment (no organisation) or anything not `<org-id>:<env-id>`. */
export function orgEnvironmentOf(id: string): OrgEnvironment | null {
  const at = id.indexOf(":");
  if (at <= 0 || at === id.length - 1) return null;
  return { org_id: id.slice(0, at), env_id: id.slice(at + 1) };
}
