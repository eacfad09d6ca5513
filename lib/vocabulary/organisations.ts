/** Spec 2.5: an organisation of the identity service. */
export const ORGANISATION_STATUSES = ["active", "suspended"] as const;
export type OrganisationStatus = (typeof ORGANISATION_STATUSES)[number];

/** A removed member keeps its row (and its history) but no longer matches a session. */
export const MEMBER_STATUSES = ["active", "removed"] as const;
export type MemberStatus = (typeof MEMBER_STATUSES)[number];

/** Owners and admins manage the organisation; only an owner grants or takes away the owner role. */
export const MEMBER_ROLES = ["owner", "admin", "member"] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];
