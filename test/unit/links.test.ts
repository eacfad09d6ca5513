import { describe, expect, it } from "vitest";
import { href, link, pageLinks } from "../../rest-adapter/route-kit/links.ts";

describe("link (spec 2.1 Link)", () => {
  it("is just href for a GET link: method GET is the default and is omitted", () => {
    expect(link("https://x.test/v0/user/me")).toEqual({ href: "https://x.test/v0/user/me" });
    expect(link("https://x.test/v0/user/me", { method: "GET" })).toEqual({ href: "https://x.test/v0/user/me" });
  });

  it("carries a non-GET method, templated only when true, and a description", () => {
    expect(link("https://x.test/w/1", { method: "DELETE" })).toEqual({ href: "https://x.test/w/1", method: "DELETE" });
    expect(link("https://x.test/w/{id}", { templated: true, description: "one wallet" })).toEqual({ href: "https://x.test/w/{id}", templated: true, description: "one wallet" });
    expect(link("https://x.test/w", { templated: false, description: "" })).toEqual({ href: "https://x.test/w" });
    expect(link("https://x.test/w", { method: "PATCH", templated: true, description: "d" })).toEqual({ href: "https://x.test/w", method: "PATCH", templated: true, description: "d" });
  });
});

describe("href", () => {
  it("prefixes the base URL and fills path parameters", () => {
    expect(href("https://api.test", "/v0/wallets/{wallet_id}", { wallet_id: 42 })).toBe("https://api.test/v0/wallets/42");
    expect(href("https://api.test", "/v0/user/me")).toBe("https://api.test/v0/user/me");
    expect(href("https://api.test", "/v0/a/{x}/b/{y}", { x: "1", y: 2 })).toBe("https://api.test/v0/a/1/b/2");
  });

  it("percent-encodes parameter values so they stay one path segment", () => {
    expect(href("https://api.test", "/v0/user/me/personal-access-tokens/{token_id}", { token_id: "a/b c?d#e" })).toBe(
      "https://api.test/v0/user/me/personal-access-tokens/a%2Fb%20c%3Fd%23e",
    );
  });
});

describe("pageLinks", () => {
  const url = "https://api.test/v0/transactions";

  it("keeps the request's filters, states the limit, and names next and prev only when they exist", () => {
    const first = pageLinks(url, { category: "groceries", meta: true, offset: 0, limit: undefined }, { limit: 2, offset: 0, total: 5 });
    expect(first).toEqual({ self: { href: `${url}?category=groceries&meta=true&offset=0&limit=2` }, next: { href: `${url}?category=groceries&meta=true&offset=2&limit=2` } });
    const last = pageLinks(url, {}, { limit: 2, offset: 4, total: 5 });
    expect(last).toEqual({ self: { href: `${url}?limit=2&offset=4` }, prev: { href: `${url}?limit=2&offset=2` } });
    expect(pageLinks(url, {}, { limit: 50, offset: 0, total: 0 })).toEqual({ self: { href: `${url}?limit=50&offset=0` } });
    // an offset that is not a multiple of the limit goes back to 0, not below
    expect(pageLinks(url, {}, { limit: 10, offset: 3, total: 30 }).prev).toEqual({ href: `${url}?limit=10&offset=0` });
  });
});
