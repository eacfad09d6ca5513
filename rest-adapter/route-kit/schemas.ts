import { Type, type SchemaOptions, type TLiteral, type TNull, type TProperties, type TSchema, type TUnion } from "@sinclair/typebox";
import { CARD_FUNDING_SOURCE_TYPES } from "../../lib/vocabulary/cards.ts";

/** Schema parts shared by route modules and the OpenAPI document. */

/** One of a vocabulary list (lib/vocabulary/ and the lib/ modules owning a list): the same values the GraphQL enums carry. */
export function literalUnion<const T extends readonly string[]>(values: T, options?: SchemaOptions): TUnion<TLiteral<T[number]>[]> {
  return Type.Union(values.map((value) => Type.Literal(value)), options);
}

/** `literalUnion` or null, as one flat union. */
export function nullableLiteralUnion<const T extends readonly string[]>(values: T, options?: SchemaOptions): TUnion<(TLiteral<T[number]> | TNull)[]> {
  return Type.Union([...values.map((value) => Type.Literal(value)), Type.Null()], options);
}

/** A non-negative decimal string: money and limits cross the API as exact decimals, never numbers. */
export const DECIMAL_PATTERN = "^[0-9]+(\\.[0-9]+)?$";
export const Address = Type.String({ pattern: "^0x[0-9a-fA-F]{40}$", description: "20-byte hex address", examples: ["0x52908400098527886E0F7030069857D2E4169EE7"] });
export const EpochMs = Type.Integer({ description: "Epoch milliseconds, or an ISO 8601 string with X-Timestamp-Format: iso8601" });
/** An instant a client writes: epoch milliseconds or ISO 8601. */
export const Instant = Type.Union([Type.Integer({ minimum: 0 }), Type.String({ format: "date-time" })], {
  description: "epoch milliseconds, or an ISO 8601 instant such as 2026-11-01T00:00:00Z",
});
/** A page's offset: GraphQL's Int holds it (32-bit), so larger ones are a 422 here rather than at the gateway. */
export const PageOffset = Type.Optional(Type.Integer({ minimum: 0, maximum: 2_147_483_647, default: 0 }));
export const ChainId = Type.Integer({ minimum: 1, description: "EIP-155 chain id", examples: [8453] });

export const Link = Type.Object(
  {
    href: Type.String(),
    method: Type.Optional(Type.String({ default: "GET" })),
    templated: Type.Optional(Type.Boolean()),
    description: Type.Optional(Type.String()),
  },
  { $id: "Link" },
);
export const Links = Type.Record(Type.String(), Type.Ref("Link"), { description: "HAL links" });

export const ValidationItem = Type.Object(
  {
    loc: Type.Array(Type.Union([Type.String(), Type.Integer()])),
    msg: Type.String(),
    type: Type.String(),
    input: Type.Unknown(),
    ctx: Type.Record(Type.String(), Type.Unknown()),
  },
  { $id: "ValidationItem" },
);

export const ProblemDetail = Type.Object(
  {
    type: Type.String({ format: "uri" }),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    instance: Type.String(),
    error_code: Type.String({ examples: ["WAL-404-001"] }),
    trace_id: Type.Union([Type.String(), Type.Null()]),
    documentation: Type.Optional(Type.String({ format: "uri", description: "identity-service errors only" })),
  },
  { $id: "ProblemDetail", description: "RFC 7807 problem detail" },
);

export const HTTPValidationError = Type.Object(
  {
    type: Type.String({ format: "uri" }),
    title: Type.String(),
    status: Type.Literal(422),
    detail: Type.Array(Type.Ref("ValidationItem")),
    instance: Type.String(),
    error_code: Type.Literal("GEN-422-001"),
    trace_id: Type.Union([Type.String(), Type.Null()]),
    documentation: Type.Optional(Type.String({ format: "uri", description: "identity-service errors only" })),
  },
  { $id: "HTTPValidationError" },
);

const FUNDING_SOURCE_IDS = {
  crypto_wallet: Type.Integer({ description: "the wallet id (spec 2.3; GET /v0/wallets/{wallet_id})", examples: [12] }),
  bank_account: Type.String({ description: "the bank account id (GET /v0/bank-accounts/{bank_account_id})", examples: ["bnk_01jd2x3y4z5a6b7c8d9e0f1g2h"] }),
} satisfies Record<(typeof CARD_FUNDING_SOURCE_TYPES)[number], TSchema>;

/**
 * A card's funding source as answered (spec 2.10): a wallet by its integer id (spec 2.3), a bank
 * account by its string id; `extra`: properties each branch carries besides (`_links`).
 */
export function cardFundingSource(extra: TProperties = {}): TSchema {
  return Type.Union(
    CARD_FUNDING_SOURCE_TYPES.map((type) => Type.Object({ type: Type.Literal(type), id: FUNDING_SOURCE_IDS[type], ...extra })),
    { description: "crypto_wallet: `id` is the wallet id, an integer; bank_account: `id` is the bank account id, a string" },
  );
}

/** A card's funding source as REST answers it (a card, the account view): a wallet's id the integer of spec 2.3, where GraphQL's is a String for wallets and bank accounts alike. */
export const CardFundingSource = cardFundingSource();

/**
 * The body of an error status: a ProblemDetail; a 422 is either the item list of a request that
 * did not validate (GEN-422-001) or a domain refusal with its own code and a text `detail`.
 */
export function problemSchema(status: number): TSchema {
  return status === 422 ? Type.Union([Type.Ref("HTTPValidationError"), Type.Ref("ProblemDetail")]) : Type.Ref("ProblemDetail");
}

/** `{ ...schema, _links }` for a response body, under the schema's title if it has one. */
export function withLinks(schema: TSchema): TSchema {
  return Type.Composite([schema as never, Type.Object({ _links: Links })], schema.title === undefined ? undefined : { title: schema.title });
}
