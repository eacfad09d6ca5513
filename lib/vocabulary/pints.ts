/** A PINT mandate as the API shows it: revoked wins over expired. */
export const PINT_STATUSES = ["active", "expired", "revoked"] as const;
export type PintStatus = (typeof PINT_STATUSES)[number];

/** Who revoked a mandate: the user (platform host) or the audience's organisation (identity host). */
export const PINT_REVOKERS = ["user", "organisation"] as const;
export type PintRevoker = (typeof PINT_REVOKERS)[number];
