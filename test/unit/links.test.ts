import { describe, expect, it } from "vitest";
import { href, link } from "../../rest-adapter/links.ts";

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
