import { appError } from "../../../lib/errors/app-error.ts";
import type { StrategyCategory } from "../../../lib/vocabulary/agents.ts";
import type { AgentsDb, AgentsTx } from "../db.ts";

export type StrategyRow = NonNullable<Awaited<ReturnType<AgentsDb["strategy"]["findUnique"]>>>;

export function strategyView(row: StrategyRow) {
  return { id: row.id, name: row.name, description: row.description, category: row.category, parameters_schema: row.parameters_schema as Record<string, unknown> };
}
export type StrategyView = ReturnType<typeof strategyView>;

/** The catalogue, by category when asked, in a stable order. */
export async function listStrategies(db: AgentsDb, category: StrategyCategory | null): Promise<StrategyView[]> {
  const where = category === null ? {} : { category };
  return (await db.strategy.findMany({ where, orderBy: [{ category: "asc" }, { id: "asc" }] })).map(strategyView);
}

export async function findStrategy(db: AgentsDb | AgentsTx, id: string): Promise<StrategyRow> {
  const row = await db.strategy.findUnique({ where: { id } });
  if (!row) throw appError("STR-404-001");
  return row;
}
