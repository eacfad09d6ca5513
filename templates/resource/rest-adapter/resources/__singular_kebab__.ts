import { Type } from "@sinclair/typebox";
import { href, link } from "../route-kit/links.ts";
import type { RestResource } from "../route-kit/resource-overlay.ts";
import { defineRoute } from "../route-kit/route.ts";
import { DECIMAL_PATTERN, Links } from "../route-kit/schemas.ts";
import type * as Generated from "./resources.generated.ts";

const NAME_INPUT = { minLength: 1, maxLength: 100, examples: ["Holiday"] };
const AMOUNT_INPUT = { pattern: DECIMAL_PATTERN, maxLength: 40, description: "positive decimal string in USD, at most 2 decimals", examples: ["1500.00"] };

/** A __singular_words__ in REST: the GraphQL __Singular__, money as a decimal string; its bodies from Create__Singular__Input and Update__Singular__Input. */
export const resource = {
  type: "__Singular__",
  inputs: { Create__Singular__Input: "__Singular__", Update__Singular__Input: "__Singular__" },
  types: {
    __Singular__: {
      fields: {
        id: { examples: ["__prefix___01jd2x3y4z5a6b7c8d9e0f1g2h"] },
        name: { examples: ["Holiday"] },
        target_amount: { pattern: DECIMAL_PATTERN, examples: ["1500"] },
      },
    },
    Create__Singular__Input: { fields: { name: NAME_INPUT, target_amount: AMOUNT_INPUT } },
    Update__Singular__Input: { fields: { name: NAME_INPUT, target_amount: AMOUNT_INPUT } },
  },
} satisfies RestResource;

const Params = Type.Object({ __singular_snake___id: Type.String({ minLength: 1, maxLength: 64, description: "__prefix___<id>" }) });

function itemLinks(base: string, item: { id: string }) {
  const self = href(base, "/v0/__plural_kebab__/{__singular_snake___id}", { __singular_snake___id: item.id });
  return { self: link(self), update: link(self, { method: "PATCH" }), delete: link(self, { method: "DELETE" }), list: link(href(base, "/v0/__plural_kebab__")) };
}

/** Its routes, with the selection and bodies resources.generated.ts makes from `resource`; that module lists them for the host. */
export const routes = ({ __SINGULAR___FIELDS, Create__Singular__Input, Update__Singular__Input }: typeof Generated) => [
  defineRoute({
    operationId: "list__Plural__",
    method: "GET",
    path: "/v0/__plural_kebab__",
    tag: "__Plural_Title__",
    summary: "The user's __plural_words__",
    security: ["PlatformJwt", "PlatformPat"],
    operation: `query List__Plural__ { items: __plural_snake__ { ${__SINGULAR___FIELDS} } }`,
    variables: () => ({}),
    result: (data) => ({ items: data.items }),
    links: (_body, { base_url }) => ({ self: link(href(base_url, "/v0/__plural_kebab__")), create: link(href(base_url, "/v0/__plural_kebab__"), { method: "POST" }) }),
    responses: { 200: { description: "The __plural_words__, oldest first", schema: Type.Object({ items: Type.Array(Type.Ref("__Singular__")), _links: Links }) } },
    errors: ["USR-404-001"],
  }),
  defineRoute({
    operationId: "create__Singular__",
    method: "POST",
    path: "/v0/__plural_kebab__",
    tag: "__Plural_Title__",
    summary: "Create a __singular_words__",
    security: ["PlatformJwt", "PlatformPat"],
    body: Create__Singular__Input,
    operation: `mutation Create__Singular__($input: Create__Singular__Input!) { item: create___singular_snake__(input: $input) { ${__SINGULAR___FIELDS} } }`,
    variables: ({ body }) => ({ input: body }),
    result: (data) => data.item,
    status: 201,
    links: (body, { base_url }) => itemLinks(base_url, body),
    responses: { 201: { description: "The __singular_words__", schema: Type.Ref("__Singular__") } },
    errors: ["USR-403-001", "USR-404-001"],
  }),
  defineRoute({
    operationId: "get__Singular__",
    method: "GET",
    path: "/v0/__plural_kebab__/{__singular_snake___id}",
    tag: "__Plural_Title__",
    summary: "One __singular_words__ of the user",
    description: "Another user's __singular_words__: 404 `__CODE__-404-001`.",
    security: ["PlatformJwt", "PlatformPat"],
    params: Params,
    operation: `query Get__Singular__($id: ID!) { item: __singular_snake__(id: $id) { ${__SINGULAR___FIELDS} } }`,
    variables: ({ params }) => ({ id: params.__singular_snake___id }),
    result: (data) => data.item,
    links: (body, { base_url }) => itemLinks(base_url, body),
    responses: { 200: { description: "The __singular_words__", schema: Type.Ref("__Singular__") } },
    errors: ["USR-404-001", "__CODE__-404-001"],
  }),
  defineRoute({
    operationId: "update__Singular__",
    method: "PATCH",
    path: "/v0/__plural_kebab__/{__singular_snake___id}",
    tag: "__Plural_Title__",
    summary: "Change a __singular_words__",
    description: "Fields absent stay as they are; `target_date: null` removes the date. Another user's __singular_words__: 404 `__CODE__-404-001`.",
    security: ["PlatformJwt", "PlatformPat"],
    params: Params,
    body: Update__Singular__Input,
    operation: `mutation Update__Singular__($id: ID!, $input: Update__Singular__Input!) { item: update___singular_snake__(id: $id, input: $input) { ${__SINGULAR___FIELDS} } }`,
    variables: ({ params, body }) => ({ id: params.__singular_snake___id, input: body }),
    result: (data) => data.item,
    links: (body, { base_url }) => itemLinks(base_url, body),
    responses: { 200: { description: "The updated __singular_words__", schema: Type.Ref("__Singular__") } },
    errors: ["USR-403-001", "USR-404-001", "__CODE__-404-001"],
  }),
  defineRoute({
    operationId: "delete__Singular__",
    method: "DELETE",
    path: "/v0/__plural_kebab__/{__singular_snake___id}",
    tag: "__Plural_Title__",
    summary: "Delete a __singular_words__",
    description: "Another user's __singular_words__: 404 `__CODE__-404-001`.",
    security: ["PlatformJwt", "PlatformPat"],
    params: Params,
    operation: `mutation Delete__Singular__($id: ID!) { deleted: delete___singular_snake__(id: $id) }`,
    variables: ({ params }) => ({ id: params.__singular_snake___id }),
    result: () => undefined,
    status: 204,
    responses: { 204: { description: "Deleted" } },
    errors: ["USR-403-001", "USR-404-001", "__CODE__-404-001"],
  }),
];
