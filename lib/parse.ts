/** Small checks for untrusted input: configuration from the environment, JSON bodies. */

export type Env = Record<string, string | undefined>;

/** An environment variable's trimmed value; empty counts as unset. */
export function envText(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === "" ? undefined : value;
}

/** A JSON object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
