import { Directive } from "type-graphql";
import type { AgentTokenScope } from "../vocabulary/agents.ts";

/** The scopes that read (AgentTool) and those that write (AgentAction). */
export type AgentReadScope = Extract<AgentTokenScope, `read:${string}`>;
export type AgentWriteScope = Extract<AgentTokenScope, `write:${string}`>;

/**
 * What agent tokens may reach, marked in the subgraphs with `@tag`, which composition keeps in
 * the supergraph for the gateway (gateway/agent-access.ts):
 * - `@Directive(AGENT_TAG)` on an object type: agents may select all of its fields;
 * - `@AgentTool(...scopes)` on a field: agents may read it, holding one of `scopes` (root
 *   fields must name at least one; read scopes, but for what any token may read of itself). A
 *   field of an untagged type is hidden from agents unless it is an AgentTool field itself
 *   (`User.accounts` shows, `User.phone_number` does not). AgentTool is read-only (spec 1): a
 *   mutation carrying it fails the supergraph's reading;
 * - `@AgentAction(scope)` on a mutation: a write agents may make, holding that write scope. It is
 *   not part of the AgentTool contract (`/graphql/agent`), only of `/graphql`, REST and MCP;
 * - `@AgentWalletScoped()` beside it: the field narrows what it answers to the wallets an agent
 *   token is restricted to (its resolver does). A restricted token reaches only such fields.
 */
export const AGENT_TAG_NAME = "agent";
export const AGENT_ACTION_TAG_NAME = "agent_action";
export const AGENT_SCOPE_TAG_PREFIX = "agent_scope:";
export const AGENT_TAG = `@tag(name: "${AGENT_TAG_NAME}")`;
export const AGENT_WALLETS_TAG_NAME = "agent_wallets";

function tags(names: string[]): MethodDecorator & PropertyDecorator {
  const decorators = names.map((name) => Directive(`@tag(name: "${name}")`));
  return (target: object, key: string | symbol, descriptor?: PropertyDescriptor) => {
    for (const decorate of decorators) decorate(target, key, descriptor as never);
  };
}

export function AgentTool(...scopes: AgentTokenScope[]): MethodDecorator & PropertyDecorator {
  return tags([AGENT_TAG_NAME, ...scopes.map((scope) => `${AGENT_SCOPE_TAG_PREFIX}${scope}`)]);
}

export function AgentAction(scope: AgentWriteScope): MethodDecorator & PropertyDecorator {
  return tags([AGENT_ACTION_TAG_NAME, `${AGENT_SCOPE_TAG_PREFIX}${scope}`]);
}

export function AgentWalletScoped(): MethodDecorator & PropertyDecorator {
  return Directive(`@tag(name: "${AGENT_WALLETS_TAG_NAME}")`) as MethodDecorator & PropertyDecorator;
}
