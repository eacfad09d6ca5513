import { isEnumType } from "graphql";
import { describe, expect, it } from "vitest";
import { ENVIRONMENT_KINDS, KEY_PARTITIONS } from "../../lib/auth/api-key.ts";
import { PAT_SCOPES } from "../../lib/auth/personal-access-token.ts";
import { PINT_SIGNER_ROLES } from "../../lib/auth/pint-scopes.ts";
import { WEBHOOK_DELIVERY_STATUSES, WEBHOOK_DISABLED_REASONS } from "../../lib/contracts/events.ts";
import { AppError } from "../../lib/errors/app-error.ts";
import { AGENT_TASK_STATUSES, CONNECTOR_TYPES, RULE_ACTIONS, RULE_TRIGGERS, STRATEGY_CATEGORIES, USER_CONNECTOR_STATUSES, USER_RULE_STATUSES, USER_SET_STRATEGY_STATUSES, USER_STRATEGY_STATUSES, WIDGET_TYPES } from "../../lib/vocabulary/agents.ts";
import { ACCOUNT_SOURCES, ASSET_TYPES, PRICE_SOURCES } from "../../lib/vocabulary/assets.ts";
import { RAMP_DIRECTIONS } from "../../lib/vocabulary/bank-accounts.ts";
import { BUDGET_PERIODS } from "../../lib/vocabulary/budgets.ts";
import { CARD_AUTHORIZATION_DECISIONS, CARD_AUTHORIZATION_STATUSES, CARD_DECLINE_REASONS, CARD_FUNDING_SOURCE_TYPES, CARD_REVEAL_METHODS, CARD_STATUSES, CARD_TYPES } from "../../lib/vocabulary/cards.ts";
import { INSIGHT_SEVERITIES, INSIGHT_STATUS_FILTERS, INSIGHT_STATUSES, INSIGHT_TYPES } from "../../lib/vocabulary/insights.ts";
import { ACCOUNT_STATUSES } from "../../lib/vocabulary/kyc.ts";
import { ONBOARDING_SAFE_MODES, ONBOARDING_STEP_ACTIONS, ONBOARDING_STEPS, STEP_STATUSES } from "../../lib/vocabulary/onboarding.ts";
import { MEMBER_ROLES, MEMBER_STATUSES, ORGANISATION_STATUSES } from "../../lib/vocabulary/organisations.ts";
import { PINT_REVOKERS, PINT_STATUSES } from "../../lib/vocabulary/pints.ts";
import { SPENDING_CATEGORIES, TRANSACTION_DIRECTIONS, TRANSACTION_STATUSES, TRANSACTION_TYPES } from "../../lib/vocabulary/transactions.ts";
import { isOneOf, requireOneOf } from "../../lib/vocabulary/values.ts";
import { SAFE_CREATION_STATUSES, WALLET_ROLES, WALLET_TYPES } from "../../lib/vocabulary/wallets.ts";
import { apiSchemaOf } from "../../scripts/operation-types.ts";
import { readSupergraph } from "../../server/supergraph.ts";

/** Every GraphQL enum of the public API and the vocabulary list it is built from. */
const ENUMS: Record<string, readonly string[]> = {
  WalletType: WALLET_TYPES,
  WalletRole: WALLET_ROLES,
  SafeCreationStatus: SAFE_CREATION_STATUSES,
  AccountStatus: ACCOUNT_STATUSES,
  OnboardingStepStatus: STEP_STATUSES,
  OnboardingSafeMode: ONBOARDING_SAFE_MODES,
  OnboardingStepName: ONBOARDING_STEPS,
  OnboardingStepAction: ONBOARDING_STEP_ACTIONS,
  PersonalAccessTokenScope: PAT_SCOPES,
  OrganisationStatus: ORGANISATION_STATUSES,
  MemberStatus: MEMBER_STATUSES,
  MemberRole: MEMBER_ROLES,
  EnvironmentKind: ENVIRONMENT_KINDS,
  KeyPartition: KEY_PARTITIONS,
  PintSignerRole: PINT_SIGNER_ROLES,
  PintStatus: PINT_STATUSES,
  PintRevoker: PINT_REVOKERS,
  WebhookDisabledReason: WEBHOOK_DISABLED_REASONS,
  WebhookDeliveryStatus: WEBHOOK_DELIVERY_STATUSES,
  TransactionType: TRANSACTION_TYPES,
  TransactionStatus: TRANSACTION_STATUSES,
  TransactionDirection: TRANSACTION_DIRECTIONS,
  SpendingCategory: SPENDING_CATEGORIES,
  AssetType: ASSET_TYPES,
  PriceSource: PRICE_SOURCES,
  AccountSource: ACCOUNT_SOURCES,
  BudgetPeriod: BUDGET_PERIODS,
  CardType: CARD_TYPES,
  CardStatus: CARD_STATUSES,
  CardFundingSourceType: CARD_FUNDING_SOURCE_TYPES,
  CardRevealMethod: CARD_REVEAL_METHODS,
  CardAuthorizationDecision: CARD_AUTHORIZATION_DECISIONS,
  CardAuthorizationStatus: CARD_AUTHORIZATION_STATUSES,
  CardDeclineReason: CARD_DECLINE_REASONS,
  InsightType: INSIGHT_TYPES,
  InsightStatus: INSIGHT_STATUSES,
  InsightStatusFilter: INSIGHT_STATUS_FILTERS,
  InsightSeverity: INSIGHT_SEVERITIES,
  RuleTrigger: RULE_TRIGGERS,
  RuleAction: RULE_ACTIONS,
  UserRuleStatus: USER_RULE_STATUSES,
  UserSetStrategyStatus: USER_SET_STRATEGY_STATUSES,
  WidgetType: WIDGET_TYPES,
  StrategyCategory: STRATEGY_CATEGORIES,
  UserStrategyStatus: USER_STRATEGY_STATUSES,
  AgentTaskStatus: AGENT_TASK_STATUSES,
  ConnectorType: CONNECTOR_TYPES,
  UserConnectorStatus: USER_CONNECTOR_STATUSES,
  RampDirection: RAMP_DIRECTIONS,
};

describe("value lists", () => {
  it("are the GraphQL enums of the committed supergraph, value for value", () => {
    const schema = apiSchemaOf(readSupergraph());
    const enums = Object.values(schema.getTypeMap()).filter((type) => isEnumType(type) && !type.name.startsWith("__"));
    expect(Object.fromEntries(enums.map((type) => [type.name, isEnumType(type) ? type.getValues().map((value) => value.name) : []]))).toEqual(
      Object.fromEntries(Object.entries(ENUMS).map(([name, values]) => [name, [...values]])),
    );
  });

  it("requireOneOf passes a listed value and refuses any other with a GEN-422-001 item at its location", () => {
    expect(isOneOf(WALLET_TYPES, "Safe")).toBe(true);
    expect(isOneOf(WALLET_TYPES, "safe")).toBe(false);
    expect(isOneOf(WALLET_TYPES, 1)).toBe(false);
    expect(requireOneOf(MEMBER_ROLES, "admin", ["role"])).toBe("admin");
    let error: unknown;
    try {
      requireOneOf(ENVIRONMENT_KINDS, "production", ["kind"]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      code: "GEN-422-001",
      validation: [{ loc: ["kind"], msg: "Input should be 'live', 'test'", type: "enum", input: "production", ctx: { expected: "live, test" } }],
    });
  });
});
