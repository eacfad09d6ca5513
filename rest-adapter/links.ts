/** HAL link (spec 2.1): `method` defaults to GET and is omitted then. */
export interface Link {
  href: string;
  method?: string;
  templated?: boolean;
  description?: string;
}

export type Links = Record<string, Link>;

export function link(href: string, options: Omit<Link, "href"> = {}): Link {
  const out: Link = { href };
  if (options.method && options.method !== "GET") out.method = options.method;
  if (options.templated) out.templated = true;
  if (options.description) out.description = options.description;
  return out;
}

/** `{base}{path}` with path parameters filled in and percent-encoded. */
export function href(base: string, path: string, params: Record<string, string | number> = {}): string {
  return base + path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(params[name])));
}
