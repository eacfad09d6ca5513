import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPlatform, type TestPlatform } from "../../support/platform.ts";

// Issue 32, item 2: a browser opening the GraphQL listener gets GraphiQL from our own origin
// (gateway/graphql-ide.ts), which the listeners' Content-Security-Policy lets run; Apollo's landing
// page loaded from its CDN and the CSP blocked it. GRAPHQL_IDE=false (the production default):
// no page at all. GraphQL requests are answered as before either way.
const BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8";
/** What a listener's answers carry whatever the route (lib/http.ts); compared with REST's /docs. */
const SECURITY_HEADERS = ["content-security-policy", "strict-transport-security", "x-content-type-options", "x-frame-options", "referrer-policy", "cross-origin-opener-policy", "cross-origin-resource-policy"];
const PATHS = ["/graphql", "/graphql/agent"];

let platform: TestPlatform;
/** GRAPHQL_IDE=false */
let withoutIde: TestPlatform;

beforeAll(async () => {
  [platform, withoutIde] = await Promise.all([startTestPlatform(), startTestPlatform({ GRAPHQL_IDE: "false" })]);
});
afterAll(async () => {
  await Promise.all([platform?.stop(), withoutIde?.stop()]);
});

/** The GraphQL listener's origin (its URL names /graphql). */
const origin = (target: TestPlatform) => new URL(target.urls.graphql).origin;

/** `names` of a response's headers; the CSP's connect-src apart, which names a REST listener's PUBLIC_URL for /docs' "try it out". */
function headersOf(response: Response, names: string[]): Record<string, string | null> {
  const csp = (value: string) => value.split(";").filter((directive) => !directive.startsWith("connect-src ")).join(";");
  return Object.fromEntries(names.map((name) => [name, name === "content-security-policy" ? csp(response.headers.get(name)!) : response.headers.get(name)]));
}

/** The CSP's sources for a directive, falling back to default-src as browsers do. */
function sources(csp: string, directive: string): string[] {
  const directives = new Map(csp.split(";").map((part) => part.trim().split(/\s+/) as [string, ...string[]]).map(([name, ...values]) => [name, values]));
  return directives.get(directive) ?? directives.get("default-src") ?? [];
}

describe("the GraphQL IDE", () => {
  it.each(PATHS)("%s answers a browser with GraphiQL whose every asset is served from the listener itself, with REST's headers", async (path) => {
    const page = await fetch(origin(platform) + path, { headers: { accept: BROWSER_ACCEPT } });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    const docs = await fetch(`${platform.urls.platform}/docs`);
    expect(headersOf(page, SECURITY_HEADERS)).toEqual(headersOf(docs, SECURITY_HEADERS));
    const html = await page.text();
    expect(html).toContain(`data-endpoint="${path}"`);

    // nothing a browser would load from elsewhere, and no inline script for the CSP to refuse
    expect(html).not.toMatch(/https?:|\/\/[a-z]|cdn|apollographql/i);
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    const csp = page.headers.get("content-security-policy")!;
    expect(sources(csp, "script-src")).toEqual(["'self'"]);
    expect(sources(csp, "style-src")).toContain("'self'");
    expect(sources(csp, "connect-src")).toEqual(["'self'"]);

    const scripts = [...html.matchAll(/<script[^>]*\bsrc="([^"]+)"/g)].map((match) => match[1]!);
    const styles = [...html.matchAll(/<link rel="stylesheet" href="([^"]+)"/g)].map((match) => match[1]!);
    expect(scripts).toEqual(["/graphql/ide/react.production.min.js", "/graphql/ide/react-dom.production.min.js", "/graphql/ide/graphiql.min.js", "/graphql/ide/ide.js"]);
    expect(styles).toEqual(["/graphql/ide/graphiql.min.css", "/graphql/ide/ide.css"]);
    // an empty icon, so the browser does not ask the listener for /favicon.ico
    expect([...html.matchAll(/<link rel="icon" href="([^"]+)"/g)].map((match) => match[1])).toEqual(["data:,"]);

    const docsAsset = await fetch(`${platform.urls.platform}/docs/assets/swagger-ui.css`);
    await docsAsset.arrayBuffer();
    const bodies = new Map<string, string>();
    for (const [assets, type] of [
      [scripts, /^text\/javascript/],
      [styles, /^text\/css/],
    ] as const) {
      for (const asset of assets) {
        const response = await fetch(origin(platform) + asset);
        expect(response.status, asset).toBe(200);
        expect(response.headers.get("content-type"), asset).toMatch(type);
        expect(headersOf(response, [...SECURITY_HEADERS, "cache-control"]), asset).toEqual(headersOf(docsAsset, [...SECURITY_HEADERS, "cache-control"]));
        const body = await response.text();
        expect(body.length, asset).toBeGreaterThan(0);
        bodies.set(asset, body);
      }
    }
    // the start-up code posts to the path the page came from, and names no other host
    const start = bodies.get("/graphql/ide/ide.js")!;
    expect(start).toContain("element.dataset.endpoint");
    expect(start).toContain("GraphiQL.createFetcher");
    expect(start).not.toMatch(/https?:|cdn/i);
    expect(bodies.get("/graphql/ide/graphiql.min.js")).toContain("GraphiQL");
    // compressed and revalidated as /docs' assets are (lib/static-body.ts): fetch asks for gzip
    const bundle = await fetch(origin(platform) + "/graphql/ide/graphiql.min.js");
    expect(bundle.headers.get("content-encoding")).toMatch(/^(br|gzip)$/);
    expect(bundle.headers.get("vary")).toMatch(/Accept-Encoding/);
    expect(await bundle.text()).toBe(bodies.get("/graphql/ide/graphiql.min.js"));
    const again = await fetch(origin(platform) + "/graphql/ide/graphiql.min.js", { headers: { "if-none-match": bundle.headers.get("etag")! } });
    expect(again.status).toBe(304);
    // GraphiQL's stylesheet loads nothing: its fonts and images are data: URLs, which the CSP allows
    const urls = [...bodies.get("/graphql/ide/graphiql.min.css")!.matchAll(/url\(\s*["']?([^"')]+)/g)].map((match) => match[1]!);
    expect(urls.length).toBeGreaterThan(0);
    for (const url of urls) expect(url.slice(0, 5), url.slice(0, 40)).toBe("data:");
    expect(sources(csp, "font-src")).toContain("data:");
    expect(sources(csp, "img-src")).toContain("data:");
  });

  it("serves no file outside its list of assets", async () => {
    for (const file of ["package.json", "..%2Fpackage.json", "graphiql.min.js.map", "index.html"]) {
      const response = await fetch(`${origin(platform)}/graphql/ide/${file}`);
      expect(response.status, file).toBe(404);
      expect((await response.json()).errors[0].extensions.error_code).toBe("GEN-404-001");
    }
  });

  it.each(PATHS)("%s answers GraphQL requests as before: POST, GET queries, Apollo's CSRF prevention", async (path) => {
    const url = origin(platform) + path;
    const post = await fetch(url, { method: "POST", headers: { "content-type": "application/json", accept: BROWSER_ACCEPT }, body: JSON.stringify({ query: "{ __typename }" }) });
    expect(post.status).toBe(200);
    expect(await post.json()).toEqual({ data: { __typename: "Query" } });
    const get = await fetch(`${url}?query=${encodeURIComponent("{ __typename }")}`, { headers: { "apollo-require-preflight": "true" } });
    expect(get.status).toBe(200);
    expect(await get.json()).toEqual({ data: { __typename: "Query" } });
    const simple = await fetch(`${url}?query=${encodeURIComponent("{ __typename }")}`);
    expect(simple.status).toBe(400);
    expect((await simple.json()).errors[0].message).toMatch(/Cross-Site Request Forgery/);
  });

  it.each(PATHS)("%s with GRAPHQL_IDE=false (the production default) has no page at all: a browser gets Apollo's JSON answer", async (path) => {
    const page = await fetch(origin(withoutIde) + path, { headers: { accept: BROWSER_ACCEPT } });
    expect(page.headers.get("content-type")).toMatch(/^application\/json/);
    expect(page.status).toBe(400);
    expect(await page.text()).not.toMatch(/<html|cdn/i);
    const asset = await fetch(`${origin(withoutIde)}/graphql/ide/graphiql.min.js`);
    expect(asset.status).toBe(404);
    await asset.arrayBuffer();
    const post = await fetch(origin(withoutIde) + path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query: "{ __typename }" }) });
    expect(await post.json()).toEqual({ data: { __typename: "Query" } });
  });
});
