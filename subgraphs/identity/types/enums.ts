import { ENVIRONMENT_KINDS, KEY_PARTITIONS } from "../../../lib/auth/api-key.ts";
import { PINT_SIGNER_ROLES } from "../../../lib/auth/pint-scopes.ts";
import { WEBHOOK_DELIVERY_STATUSES, WEBHOOK_DISABLED_REASONS } from "../../../lib/contracts/events.ts";
import { graphqlEnum } from "../../../lib/graphql/enums.ts";
import { MEMBER_ROLES, MEMBER_STATUSES, ORGANISATION_STATUSES } from "../../../lib/vocabulary/organisations.ts";
import { PINT_REVOKERS, PINT_STATUSES } from "../../../lib/vocabulary/pints.ts";

/** The identity subgraph's output enums, one per vocabulary list (see lib/graphql/enums.ts). */
export const OrganisationStatusEnum = graphqlEnum(ORGANISATION_STATUSES, "OrganisationStatus", "active or suspended.");
export const MemberStatusEnum = graphqlEnum(MEMBER_STATUSES, "MemberStatus", "active or removed.");
export const MemberRoleEnum = graphqlEnum(MEMBER_ROLES, "MemberRole", "owner, admin or member; only owners grant owner.");
export const EnvironmentKindEnum = graphqlEnum(ENVIRONMENT_KINDS, "EnvironmentKind", "live (production) or test: shown in its keys' prefix.");
export const KeyPartitionEnum = graphqlEnum(KEY_PARTITIONS, "KeyPartition", "server (never in a browser) or public, fixed at mint.");
export const PintSignerRoleEnum = graphqlEnum(PINT_SIGNER_ROLES, "PintSignerRole", "owner (the wallet's key or the user's primary EOA) or agent (a registered Safe signer).");
export const PintStatusEnum = graphqlEnum(PINT_STATUSES, "PintStatus", "active, expired or revoked.");
export const PintRevokerEnum = graphqlEnum(PINT_REVOKERS, "PintRevoker", "Who revoked a mandate: the user or the organisation.");
export const WebhookDisabledReasonEnum = graphqlEnum(WEBHOOK_DISABLED_REASONS, "WebhookDisabledReason", "Why a webhook endpoint is disabled: gone (its receiver answered 410), failing (every attempt failed for five days, none delivered since) or user (switched off).");
export const WebhookDeliveryStatusEnum = graphqlEnum(WEBHOOK_DELIVERY_STATUSES, "WebhookDeliveryStatus", "pending (owed: on the retry schedule), delivered (a 2xx answered) or failed (given up, or its endpoint deleted).");
