import { Type } from "@sinclair/typebox";
import type { RestResource, TypeOverlay } from "../route-kit/resource-overlay.ts";
import { literalUnion } from "../route-kit/schemas.ts";
import { AUTH_PROVIDER_NAMES } from "../../lib/config.ts";

/**
 * The shape of one `auth_providers` entry, for the document and a first type check (GraphQL takes
 * any JSON object); the rules themselves (key source, URL, unique issuer) are AUTH_PROVIDERS's,
 * applied by the identity subgraph.
 */
const AuthProvider = Type.Object(
  {
    name: literalUnion(AUTH_PROVIDER_NAMES),
    issuer: Type.String({ minLength: 1, description: "the `iss` of the provider's tokens; picks the provider" }),
    jwks_uri: Type.Optional(
      Type.String({
        description:
          "https URL of the provider's JWKS on a public host: private, loopback, link-local and other internal addresses are refused (422), here and for every address the name resolves to when the keys are fetched (at most 64 KiB in 5 s, redirects not followed). A token whose `kid` is unknown makes the platform fetch the keys again at once, so a rotated key verifies on its first use",
      }),
    ),
    public_key: Type.Optional(Type.Union([Type.String({ description: "PEM (SPKI)" }), Type.Record(Type.String(), Type.Unknown(), { description: "a JWK" })])),
    audience: Type.Optional(Type.Union([Type.String({ minLength: 1 }), Type.Array(Type.String({ minLength: 1 }), { minItems: 1 })], { description: "for provider_b the application id; when set, tokens without a matching `aud` are refused" })),
    mode: Type.Optional(Type.Literal("app_id_only", { description: "only identity tokens (with linked_accounts) verify" })),
  },
  { description: "Shaped like an AUTH_PROVIDERS entry: jwks_uri or public_key, except that a siwe entry without keys uses the platform signing key." },
);

export const AuthProviders = Type.Array(AuthProvider, { maxItems: 20, description: "the identity providers the environment's users sign in with (spec 5.1.2)" });

/** An environment and its sign-in settings, also inside an organisation (organisation.ts). */
export const ENVIRONMENT: Record<string, TypeOverlay> = {
  Environment: { fields: { kind: { description: "shown in the prefix of the environment's keys" } } },
  EnvironmentAuth: { fields: { provider_configs: { description: "the providers as set with `auth_providers`" } } },
};

// body fields REST takes or leaves out but never takes null for, as before
const NAME = { minLength: 1, maxLength: 100 };
const AUTH_FIELDS = {
  auth_providers: { schema: AuthProviders, acceptsNull: false },
  auth_is_active: { acceptsNull: false, description: "false: no JWT is accepted with x-platform-orgid <org_id>:<env_id>" },
} as const;

/** An environment of an organisation in REST (spec 2.5), written inline by the identity host's routes; its bodies from CreateEnvironmentInput and UpdateEnvironmentInput. */
export const resource = {
  type: "Environment",
  component: false,
  inputs: { CreateEnvironmentInput: "Environment", UpdateEnvironmentInput: "Environment" },
  types: {
    ...ENVIRONMENT,
    CreateEnvironmentInput: { fields: { name: NAME, label: { maxLength: 100 }, kind: { acceptsNull: false }, ...AUTH_FIELDS } },
    UpdateEnvironmentInput: { fields: { name: { ...NAME, acceptsNull: false }, label: { maxLength: 100 }, ...AUTH_FIELDS } },
  },
} satisfies RestResource;
