import { ALL_EVENT_TYPES, EVENT_TYPES, MAX_WEBHOOK_DESCRIPTION_LENGTH, MAX_WEBHOOK_URL_LENGTH } from "../../../lib/contracts/events.ts";
import { AppError, validationError, type ValidationItem } from "../../../lib/errors/app-error.ts";
import { publicHttpsUrlProblem, type PublicUrlPolicy } from "../../../lib/net/public-url.ts";

// The checks an endpoint's fields pass on create and update, each naming the field by its path in
// the input (the adapter puts it under `body`).

const KNOWN_TYPES: ReadonlySet<string> = new Set([...EVENT_TYPES, ALL_EVENT_TYPES]);

/** https to a public host, or loopback under WEBHOOK_ALLOW_LOOPBACK; resolved addresses are checked again at delivery. */
export function checkWebhookUrl(url: string, policy: PublicUrlPolicy): string {
  if (url.length > MAX_WEBHOOK_URL_LENGTH)
    throw validationError(["url"], `String should have at most ${MAX_WEBHOOK_URL_LENGTH} characters`, url, "string_too_long", { max_length: MAX_WEBHOOK_URL_LENGTH });
  const problem = publicHttpsUrlProblem(url, policy);
  if (problem) throw validationError(["url"], `Value error, ${problem}`, url);
  return url;
}

/** Catalogue names, without repeats, or `*` alone; every unknown name is one item at its index. */
export function checkEventTypes(types: string[]): string[] {
  if (types.length === 0) throw validationError(["event_types"], "List should have at least 1 item after validation, not 0", types, "too_short", { min_length: 1 });
  const unknown: ValidationItem[] = types.flatMap((type, index) =>
    KNOWN_TYPES.has(type)
      ? []
      : [{ type: "enum", loc: ["event_types", index], msg: `Input should be an event type of the catalogue or '${ALL_EVENT_TYPES}'`, input: type, ctx: { expected: [...EVENT_TYPES, ALL_EVENT_TYPES].join(", ") } }],
  );
  if (unknown.length > 0) throw new AppError("GEN-422-001", { validation: unknown });
  const distinct = [...new Set(types)];
  if (distinct.includes(ALL_EVENT_TYPES) && distinct.length > 1)
    throw validationError(["event_types"], `Value error, '${ALL_EVENT_TYPES}' subscribes to every type and stands alone`, types);
  return distinct;
}

/** Trimmed; empty means none. */
export function checkDescription(description: string | null | undefined): string | null {
  const text = description?.trim() ?? "";
  if (text.length > MAX_WEBHOOK_DESCRIPTION_LENGTH)
    throw validationError(["description"], `String should have at most ${MAX_WEBHOOK_DESCRIPTION_LENGTH} characters`, description, "string_too_long", { max_length: MAX_WEBHOOK_DESCRIPTION_LENGTH });
  return text === "" ? null : text;
}
