/** GraphQL selections shared by routes, so a resource has one shape wherever it appears. */
export const ASSET_FIELDS = `id asset_type symbol name decimals contract_addresses { chain_id address } price { value_usd timestamp stale source }`;
export const ASSET_BALANCE_FIELDS = `asset { ${ASSET_FIELDS} } balance value_usd`;
export const INSIGHT_FIELDS = `id type severity status title description data created_at updated_at resolved_at dismissed_at`;
