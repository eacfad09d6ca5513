/** GraphQL selections shared by routes, so a resource has one shape wherever it appears. */
export const INSIGHT_FIELDS = `id type severity status title description data created_at updated_at resolved_at dismissed_at`;
