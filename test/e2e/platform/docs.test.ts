import { request } from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "../../../lib/errors/app-error.ts";
import { ERROR_CATALOGUE, errorTypeName, type ErrorCode } from "../../../lib/errors/catalogue.ts";
import { prefersHtml } from "../../../rest-adapter/route-kit/docs.ts";
import { renderProblem } from "../../../rest-adapter/route-kit/problem.ts";
import { refsIn, resolveRef } from "../../support/openapi-document.ts";
import { startTestPlatform, type TestPlatform } from "../../support/platform.ts";

const BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8";
const CODES = Object.keys(ERROR_CATALOGUE) as ErrorCode[];

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform?.stop());

describe("the API reference at /docs", () => {
  it.each(["platform", "identity", "rpc"] as const)("the %s host serves Swagger UI for its own /openapi.json, assets included", async (host) => {
    const base = platform.urls[host];
    const page = await fetch(`${base}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await page.text();
    const title = ((await (await fetch(`${base}/openapi.json`)).json()) as { info: { title: string } }).info.title;
    expect(html).toContain(`<title>${title} reference</title>`);
    const assets = [...html.matchAll(/(?:src|href)="(\/docs\/assets\/[^"]+)"/g)].map((match) => match[1]!);
    expect(assets).toEqual(expect.arrayContaining(["/docs/assets/swagger-ui-bundle.js", "/docs/assets/swagger-ui.css", "/docs/assets/reference.js"]));
    for (const asset of assets) {
      const response = await fetch(base + asset);
      expect(response.status, asset).toBe(200);
      expect((await response.arrayBuffer()).byteLength, asset).toBeGreaterThan(0);
    }
    expect(await (await fetch(`${base}/docs/assets/reference.js`)).text()).toContain('url: "/openapi.json"');
    const bundle = await fetch(`${base}/docs/assets/swagger-ui-bundle.js`);
    expect(bundle.headers.get("content-type")).toMatch(/^text\/javascript/);
    expect(await bundle.text()).toContain("SwaggerUIBundle");
  });

  it("serves no file outside its list of assets", async () => {
    for (const file of ["package.json", "..%2Fpackage.json", "index.html", "swagger-ui-bundle.js.map"]) {
      const response = await fetch(`${platform.urls.platform}/docs/assets/${file}`);
      expect(response.status, file).toBe(404);
      expect((await response.json()).error_code).toBe("GEN-404-001");
    }
  });
});

/** A GET as sent, without fetch's own Accept-Encoding and decoding: the bytes and headers as answered. */
function rawGet(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on("error", reject);
    })
      .on("error", reject)
      .end();
  });
}

// Issue 32 item 4: /openapi.json was 1.58 MB, never compressed, and /docs took 5-9 s to load.
describe("the documents and the reference's assets, compressed", () => {
  it.each(["platform", "identity", "rpc"] as const)("%s: /openapi.json as is without Accept-Encoding, gzip or br when accepted, the same JSON each way", async (host) => {
    const url = `${platform.urls[host]}/openapi.json`;
    const identity = await rawGet(url);
    expect(identity.status).toBe(200);
    expect(identity.headers["content-encoding"]).toBeUndefined();
    expect(identity.headers["content-type"]).toMatch(/^application\/json/);
    expect(identity.headers.vary).toMatch(/Accept-Encoding/);
    const document = JSON.parse(identity.body.toString("utf8"));
    // lean: the platform's was 1.58 MB, 827 KB of it the same error responses per operation
    expect(identity.body.length).toBeLessThan(host === "rpc" ? 60_000 : 950_000);
    for (const ref of refsIn(document)) expect(resolveRef(document, ref), ref).toBeDefined();
    expect(await (await fetch(url)).json()).toEqual(document);

    const gzip = await rawGet(url, { "accept-encoding": "gzip" });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(gzip.headers.vary).toMatch(/Accept-Encoding/);
    expect(JSON.parse(gunzipSync(gzip.body).toString("utf8"))).toEqual(document);
    expect(gzip.body.length).toBeLessThan(identity.body.length / 4);
    expect(Number(gzip.headers["content-length"])).toBe(gzip.body.length);

    const br = await rawGet(url, { "accept-encoding": "gzip, deflate, br" });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(JSON.parse(brotliDecompressSync(br.body).toString("utf8"))).toEqual(document);
    expect((await rawGet(url, { "accept-encoding": "identity" })).headers["content-encoding"]).toBeUndefined();
    expect((await rawGet(url, { "accept-encoding": "gzip;q=0, br;q=0" })).body).toEqual(identity.body);

    // each coding its own ETag; a cache holding one revalidates it with a 304 and no body
    const etags = [identity, gzip, br].map((answer) => answer.headers.etag as string);
    expect(new Set(etags).size).toBe(3);
    const revalidated = await rawGet(url, { "accept-encoding": "gzip", "if-none-match": etags[1]! });
    expect(revalidated.status).toBe(304);
    expect(revalidated.body.length).toBe(0);
    expect((await rawGet(url, { "accept-encoding": "gzip", "if-none-match": etags[0]! })).status).toBe(200);
    // compressed once, then the same bytes for every request
    expect((await rawGet(url, { "accept-encoding": "gzip" })).body).toEqual(gzip.body);
  });

  it("compresses Swagger UI's script and stylesheet, and leaves its icon and a small script as they are", async () => {
    const base = `${platform.urls.platform}/docs/assets`;
    for (const file of ["swagger-ui-bundle.js", "swagger-ui.css"]) {
      const plain = await rawGet(`${base}/${file}`);
      const gzip = await rawGet(`${base}/${file}`, { "accept-encoding": "gzip" });
      expect(gzip.headers["content-encoding"], file).toBe("gzip");
      expect(gzip.headers["cache-control"], file).toBe("public, max-age=86400");
      expect(gunzipSync(gzip.body).equals(plain.body), file).toBe(true);
      expect(gzip.body.length, file).toBeLessThan(plain.body.length / 3);
    }
    for (const file of ["favicon-32x32.png", "reference.js"]) {
      const answer = await rawGet(`${base}/${file}`, { "accept-encoding": "gzip, br" });
      expect(answer.status, file).toBe(200);
      expect(answer.headers["content-encoding"], file).toBeUndefined();
    }
  });

  it("keeps CORS's Vary: Origin beside Accept-Encoding", async () => {
    const answer = await rawGet(`${platform.urls.platform}/openapi.json`, { origin: "http://localhost:3000", "accept-encoding": "gzip" });
    expect(answer.headers.vary).toMatch(/Origin/);
    expect(answer.headers.vary).toMatch(/Accept-Encoding/);
  });
});

describe("error pages", () => {
  it("every catalogue code has a page at /errors/<code> and /docs/errors/<code>: JSON to API clients, HTML to browsers", async () => {
    for (const code of CODES) {
      const { status, title, detail } = ERROR_CATALOGUE[code];
      for (const path of [`/errors/${code.toLowerCase()}`, `/docs/errors/${code}`]) {
        const json = await fetch(platform.urls.platform + path);
        expect(json.status, path).toBe(200);
        expect(await json.json()).toEqual({ error_code: code, status, title, detail, type_name: errorTypeName(code) });
      }
      const html = await fetch(`${platform.urls.platform}/errors/${code.toLowerCase()}`, { headers: { accept: BROWSER_ACCEPT } });
      expect(html.headers.get("content-type")).toMatch(/^text\/html/);
      const text = await html.text();
      expect(text).toContain(`${code}: ${title.replace(/&/g, "&amp;")}`);
      expect(text).toContain(`HTTP status <strong>${status}</strong>`);
    }
  });

  it("a type name lists every error it names", async () => {
    const response = await fetch(`${platform.urls.platform}/docs/errors/not_found`);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.type_name).toBe("not_found");
    expect(body.errors.map((e: { error_code: string }) => e.error_code)).toEqual(expect.arrayContaining(["GEN-404-001", "IDS-404-001"]));
  });

  it("an unknown code or type name is a 404: a ProblemDetail to API clients, to browsers an HTML page that does not repeat the name", async () => {
    const response = await fetch(`${platform.urls.platform}/errors/XYZ-999-999`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error_code: "GEN-404-001", detail: "No error code or type XYZ-999-999 exists." });
    for (const path of ["/docs/errors/%3Cscript%3Ealert(1)%3C%2Fscript%3E", "/errors/XYZ-999-999"]) {
      const html = await fetch(platform.urls.platform + path, { headers: { accept: BROWSER_ACCEPT } });
      expect(html.status, path).toBe(404);
      expect(html.headers.get("content-type"), path).toMatch(/^text\/html/);
      const text = await html.text();
      expect(text).toContain("No such error");
      expect(text).not.toMatch(/script|XYZ/i);
      expect(text).toContain(`href="${path.slice(0, path.lastIndexOf("/"))}"`);
    }
  });

  it.each(["/errors", "/docs/errors"])("%s lists every catalogue code, each linking to its page", async (index) => {
    const json = await fetch(platform.urls.identity + index);
    expect(json.status).toBe(200);
    expect(((await json.json()) as { errors: { error_code: string }[] }).errors.map((e) => e.error_code)).toEqual(CODES);
    const html = await fetch(platform.urls.identity + index, { headers: { accept: BROWSER_ACCEPT } });
    expect(html.headers.get("content-type")).toMatch(/^text\/html/);
    const links = [...(await html.text()).matchAll(/<a href="([^"]+)"><code>/g)].map((match) => match[1]);
    expect(links).toEqual(CODES.map((code) => `${index}/${code}`));
    expect((await fetch(platform.urls.identity + links[0]!)).status).toBe(200);
  });

  it.each(["platform", "identity", "rpc"] as const)("the %s host serves the browser's /favicon.ico", async (host) => {
    const response = await fetch(`${platform.urls[host]}/favicon.ico`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await response.arrayBuffer()).subarray(1, 4).toString()).toBe("PNG");
  });

  it("the type and documentation URI of every catalogue error, in both styles, answers 200 where the configuration points", async () => {
    const { publicBaseUrl, publicIdentityUrl, docsUrl } = platform.config;
    const uris = new Set<string>();
    for (const code of CODES) {
      for (const [style, base] of [["platform", publicBaseUrl], ["identity", publicIdentityUrl]] as const) {
        const problem = renderProblem(new AppError(code), { instance: "/x", trace_id: "t", base_url: base, docs_url: docsUrl, style });
        uris.add(problem.type);
        if (problem.documentation) uris.add(problem.documentation);
      }
    }
    expect(uris.size).toBeGreaterThan(CODES.length);
    for (const uri of uris) expect((await fetch(uri)).status, uri).toBe(200);
  });
});

describe("prefersHtml", () => {
  it("is true for a browser's Accept and false for API clients", () => {
    expect(prefersHtml(BROWSER_ACCEPT)).toBe(true);
    expect(prefersHtml("text/html")).toBe(true);
    expect(prefersHtml(undefined)).toBe(false);
    expect(prefersHtml("*/*")).toBe(false);
    expect(prefersHtml("application/json")).toBe(false);
    expect(prefersHtml("application/problem+json, text/html;q=0.5")).toBe(false);
    expect(prefersHtml("text/html;q=abc, application/json;q=0.1")).toBe(false);
  });
});
