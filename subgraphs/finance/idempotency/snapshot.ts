/** Instants in a stored response: the names spec 2.1 gives timestamps (`*_at`, `timestamp`, `period_*`). */
function isInstantField(name: string): boolean {
  return name.endsWith("_at") || name === "timestamp" || name === "period_start" || name === "period_end";
}

/** A view as the JSON an Idempotency-Key row keeps (Dates become ISO strings). */
export function jsonSnapshot(view: unknown): unknown {
  return JSON.parse(JSON.stringify(view));
}

/** A stored view back, its instants Dates again, at any depth. */
export function fromJsonSnapshot<T>(json: unknown): T {
  const revive = (value: unknown, key: string): unknown => {
    if (typeof value === "string" && isInstantField(key)) return new Date(value);
    if (Array.isArray(value)) return value.map((item) => revive(item, ""));
    if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([name, inner]) => [name, revive(inner, name)]));
    return value;
  };
  return revive(json, "") as T;
}
