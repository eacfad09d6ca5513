import type { AutomationFinance } from "../../../lib/automation-finance.ts";
import { ACTION_SCHEMAS, type ActionSettings } from "../../../lib/contracts/rules.ts";
import type { TaskKind } from "./task-kinds.ts";

/**
 * `transfer` (internal: a rule's transfer action): moves money between two of the user's wallets
 * through finance's idempotent movement keyed by the task, so a repeated run moves it once; the
 * movement carries the task's cause (the rule's firing and the chain before it).
 */
export function transferKind(finance: AutomationFinance): TaskKind {
  return {
    internal: true,
    description: "A rule's transfer between two of your wallets.",
    input: ACTION_SCHEMAS.transfer,
    title: (input) => `Transfer ${String(input.amount)} ${String(input.asset)}`,
    prepare: async () => ({ user_strategy_id: null }),
    async run({ task, trace_id }) {
      const settings = task.input as ActionSettings<"transfer">;
      const movement = await finance.move(
        { user_id: task.user_id, key: task.id, from_wallet_id: settings.from_wallet_id, to_wallet_id: settings.to_wallet_id, asset: settings.asset, buy_asset: null, amount: settings.amount, description: "Rule transfer", cause: task.cause ?? { root: `task:${task.id}`, chain: [], depth: 1, firing_id: task.id } },
        trace_id,
      );
      return { output: { ...settings, transaction_ids: movement.transaction_ids } };
    },
  };
}

