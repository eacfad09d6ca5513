import { Type, type TSchema } from "@sinclair/typebox";
import type { WidgetType } from "../vocabulary/agents.ts";
import { SPENDING_CATEGORIES, TRANSACTION_DIRECTIONS, TRANSACTION_TYPES } from "../vocabulary/transactions.ts";

const Id = (description: string) => Type.String({ minLength: 1, maxLength: 64, description });
const options = { additionalProperties: false };

/** The dashboard's grid: its columns, the furthest row a widget may start on, and the tallest widget in rows. */
export const WIDGET_GRID = { columns: 12, max_row: 1000, max_height: 20 } as const;

/** Each widget type's settings: what its data is narrowed to. */
export const WIDGET_SETTINGS = {
  balance: Type.Object({ source_id: Type.Optional(Id("one account of GET /v0/accounts (its source_id); all of them when absent")) }, options),
  transactions: Type.Object(
    {
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 10 })),
      type: Type.Optional(Type.Union(TRANSACTION_TYPES.map((value) => Type.Literal(value)))),
      category: Type.Optional(Type.Union(SPENDING_CATEGORIES.map((value) => Type.Literal(value)))),
      direction: Type.Optional(Type.Union(TRANSACTION_DIRECTIONS.map((value) => Type.Literal(value)))),
    },
    options,
  ),
  chat: Type.Object({ session_id: Type.Optional(Id("a chat session's messages; your sessions when absent")) }, options),
  budget: Type.Object({ budget_id: Type.Optional(Id("one budget; all of them when absent")) }, options),
} satisfies Record<WidgetType, TSchema>;
