import { Type } from "@sinclair/typebox";
import { defineRoute } from "../route-kit/route.ts";
import { href, link } from "../route-kit/links.ts";
import { PHONE_STATE_FIELDS, PHONE_VERIFICATION_CHALLENGE_FIELDS, PhoneState, PhoneVerificationChallenge } from "../resources/resources.generated.ts";
import { withLinks } from "../route-kit/schemas.ts";

function phoneLinks(base: string) {
  return {
    self: link(href(base, "/v0/user/me/phone")),
    start: link(href(base, "/v0/user/me/phone/verification"), { method: "POST" }),
    confirm: link(href(base, "/v0/user/me/phone/verification/confirm"), { method: "POST" }),
  };
}

export const phoneRoutes = [
  defineRoute({
    operationId: "getPhone",
    method: "GET",
    path: "/v0/user/me/phone",
    tag: "User",
    summary: "The user's verified phone and any pending code",
    security: ["PlatformJwt", "PlatformPat"],
    operation: `query Phone { phone { ${PHONE_STATE_FIELDS} } }`,
    result: (data) => data.phone,
    links: (_body, { base_url }) => phoneLinks(base_url),
    responses: { 200: { description: "The phone state", schema: withLinks(PhoneState) } },
    errors: ["USR-404-001"],
  }),
  defineRoute({
    operationId: "startPhoneVerification",
    method: "POST",
    path: "/v0/user/me/phone/verification",
    tag: "User",
    summary: "Step 1: send a verification code by SMS",
    description:
      "Sends a 6-digit code to `phone_number` (E.164; spaces, hyphens, dots and parentheses are ignored). The code is valid for 10 minutes and 5 wrong attempts; a new code replaces the previous one. At most 5 codes per user per rolling hour (429 `PHN-429-001` with Retry-After). Only a hash of the code is stored, and the code is never logged (outside sandbox mode the sender logs at most the masked number). 502 `PHN-502-001` when the SMS provider fails (nothing stored); 503 `PHN-503-001` when no SMS provider is configured (`SMS_PROVIDER`).",
    security: ["PlatformJwt", "PlatformPat"],
    body: Type.Object({ phone_number: Type.String({ minLength: 1, maxLength: 32, examples: ["+447700900123"] }) }),
    operation: `mutation StartPhone($phone_number: String!) { challenge: start_phone_verification(phone_number: $phone_number) { ${PHONE_VERIFICATION_CHALLENGE_FIELDS} } }`,
    variables: ({ body }) => ({ phone_number: body.phone_number }),
    result: (data) => data.challenge,
    status: 202,
    links: (_body, { base_url }) => phoneLinks(base_url),
    responses: { 202: { description: "Code sent", schema: withLinks(PhoneVerificationChallenge) } },
    errors: ["USR-403-001", "USR-404-001", "PHN-429-001", "PHN-502-001", "PHN-503-001"],
  }),
  defineRoute({
    operationId: "confirmPhoneVerification",
    method: "POST",
    path: "/v0/user/me/phone/verification/confirm",
    tag: "User",
    summary: "Step 2: confirm the code",
    description: "400 `PHN-400-001` for a wrong code (the detail says how many attempts remain), 410 `PHN-410-001` once expired or out of attempts, 404 `PHN-404-001` with no code pending.",
    security: ["PlatformJwt", "PlatformPat"],
    body: Type.Object({ code: Type.String({ pattern: "^[0-9]{6}$" }) }),
    operation: `mutation ConfirmPhone($code: String!) { phone: confirm_phone_verification(code: $code) { ${PHONE_STATE_FIELDS} } }`,
    variables: ({ body }) => ({ code: body.code }),
    result: (data) => data.phone,
    links: (_body, { base_url }) => phoneLinks(base_url),
    responses: { 200: { description: "Verified", schema: withLinks(PhoneState) } },
    errors: ["USR-403-001", "USR-404-001", "PHN-400-001", "PHN-404-001", "PHN-410-001"],
  }),
];
