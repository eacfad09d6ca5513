/** An environment row as the API shows it (spec 2.5): `auth` and `features` are built from stored JSON. */
export function environmentView(row: {
  id: string;
  name: string;
  label: string | null;
  kind: string;
  auth_providers: unknown;
  auth_is_active: boolean;
  auth_updated_at: Date;
  features: unknown;
  created_at: Date;
  updated_at: Date;
}) {
  const providers = (Array.isArray(row.auth_providers) ? row.auth_providers : []) as ({ name: string } & Record<string, unknown>)[];
  const features = (Array.isArray(row.features) ? row.features : []) as { name: string; enabled: boolean; config?: Record<string, unknown>; created_at?: string; updated_at?: string }[];
  return {
    id: row.id,
    name: row.name,
    label: row.label,
    kind: row.kind,
    created_at: row.created_at,
    updated_at: row.updated_at,
    auth: {
      provider: providers[0]?.name ?? null,
      providers: providers.map((p) => p.name),
      provider_configs: providers,
      is_active: row.auth_is_active,
      created_at: row.created_at,
      updated_at: row.auth_updated_at,
      credentials: { environment_id: row.id, api_key: null },
    },
    features: features.map((f) => ({
      name: f.name,
      enabled: f.enabled,
      config: f.config ?? {},
      created_at: f.created_at ? new Date(f.created_at) : row.created_at,
      updated_at: f.updated_at ? new Date(f.updated_at) : row.updated_at,
    })),
  };
}
