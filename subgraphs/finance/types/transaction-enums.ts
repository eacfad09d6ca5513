import { graphqlEnum } from "../../../lib/graphql/enums.ts";
import { SPENDING_CATEGORIES, TRANSACTION_DIRECTIONS, TRANSACTION_STATUSES, TRANSACTION_TYPES } from "../../../lib/vocabulary/transactions.ts";

/** The ledger's output enums, one per vocabulary list (see lib/graphql/enums.ts). */
export const TransactionTypeEnum = graphqlEnum(TRANSACTION_TYPES, "TransactionType", "The kind of movement (spec 2.10).");
export const TransactionStatusEnum = graphqlEnum(TRANSACTION_STATUSES, "TransactionStatus", "pending → processing → completed or failed (spec 3.4).");
export const TransactionDirectionEnum = graphqlEnum(TRANSACTION_DIRECTIONS, "TransactionDirection", "in: money arrived at the source; out: money left it.");
export const SpendingCategoryEnum = graphqlEnum(SPENDING_CATEGORIES, "SpendingCategory", "The budget categories of spec 2.10.");
