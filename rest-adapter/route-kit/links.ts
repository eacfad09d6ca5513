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

/** A request's query values, as a list's links repeat them. */
export type QueryValues = Record<string, string | number | boolean | undefined>;

/**
 * A paged list's `self`, and `next`/`prev` when such a page exists: `url` with the request's own
 * query values, the limit in force and each page's offset, so following them keeps the filters.
 */
export function pageLinks(url: string, query: QueryValues, pagination: { limit: number; offset: number; total: number }): Links {
  const { limit, offset, total } = pagination;
  const at = (pageOffset: number) => {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries({ ...query, limit, offset: pageOffset })) if (value !== undefined) params.set(name, String(value));
    return link(`${url}?${params.toString()}`);
  };
  return { self: at(offset), ...(offset + limit < total && { next: at(offset + limit) }), ...(offset > 0 && { prev: at(Math.max(0, offset - limit)) }) };
}
