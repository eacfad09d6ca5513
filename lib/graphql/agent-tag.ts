import { Directive } from "type-graphql";
import type { AgentTokenScope } from "../vocabulary/agents.ts";

/**
 * What agent tokens may read, marked in the subgraphs with `@tag`, which composition keeps in
 * the supergraph for the gateway (gateway/agent-access.ts):
 * - `@Directive(AGENT_TAG)` on an object type: agents may select all of its fields;
 * - `@AgentTool(...scopes)` on a field: agents may select it, holding one of `scopes` (root
 *   fields must name at least one). A field of an untagged type is hidden from agents unless it
 *   is an AgentTool field itself (`User.accounts` shows, `User.phone_number` does not);
 * - `@AgentWalletScoped()` beside it: the field narrows what it answers to the wallets an agent
 *   token is restricted to (its resolver does). A restricted token reaches only such fields.
 */
export const AGENT_TAG_NAME = "agent";
export const AGENT_SCOPE_TAG_PREFIX = "agent_scope:";
export const AGENT_TAG = `@tag(name: "${AGENT_TAG_NAME}")`;
export const AGENT_WALLETS_TAG_NAME = "agent_wallets";

export function AgentTool(...scopes: AgentTokenScope[]): MethodDecorator & PropertyDecorator {
  const decorators = [Directive(AGENT_TAG), ...scopes.map((scope) => Directive(`@tag(name: "${AGENT_SCOPE_TAG_PREFIX}${scope}")`))];
  return (target: object, key: string | symbol, descriptor?: PropertyDescriptor) => {
    for (const decorate of decorators) decorate(target, key, descriptor as never);
  };
}

export function AgentWalletScoped(): MethodDecorator & PropertyDecorator {
  return Directive(`@tag(name: "${AGENT_WALLETS_TAG_NAME}")`) as MethodDecorator & PropertyDecorator;
}
