/** GraphQL selections shared by routes, so a resource has one shape wherever it appears. */
export const WALLET_FIELDS = `id type role address chain_id is_primary nickname safe_creation_status safe_creation_event_id signer_of_wallet_id created_at updated_at`;
export const STATUS_CHANGE_FIELDS = `from to cause event_id ignored changed_at`;
export const USER_FIELDS = `id auth_provider auth_provider_id status primary_eoa_address primary_chain_id safe_creation_status phone_number created_at updated_at`;
