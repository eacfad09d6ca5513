import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { displayPrefix, generatePersonalAccessToken, hashToken, isWellFormedPersonalAccessToken, PAT_PREFIX } from "../../lib/auth/personal-access-token.ts";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

describe("personal access token format", () => {
  it("is plat_pat_ + 40 base62 characters + a 6-character checksum, and well-formed", () => {
    expect(PAT_PREFIX).toBe("plat_pat_");
    for (let i = 0; i < 200; i++) {
      const token = generatePersonalAccessToken();
      expect(token).toMatch(/^plat_pat_[0-9A-Za-z]{46}$/);
      expect(isWellFormedPersonalAccessToken(token)).toBe(true);
    }
  });

  it("is random: no two generated tokens are alike", () => {
    const tokens = new Set(Array.from({ length: 1000 }, generatePersonalAccessToken));
    expect(tokens.size).toBe(1000);
  });

  it("uses the whole alphabet (no bias towards a few characters)", () => {
    const seen = new Set(Array.from({ length: 200 }, () => generatePersonalAccessToken().slice(PAT_PREFIX.length, PAT_PREFIX.length + 40)).join(""));
    expect(seen.size).toBe(62);
  });
});

describe("checksum", () => {
  it("catches a change of any single character, body or checksum", () => {
    const token = generatePersonalAccessToken();
    for (let i = PAT_PREFIX.length; i < token.length; i++) {
      for (const replacement of [ALPHABET[(ALPHABET.indexOf(token[i]!) + 1) % 62]!, ALPHABET[(ALPHABET.indexOf(token[i]!) + 31) % 62]!]) {
        const changed = token.slice(0, i) + replacement + token.slice(i + 1);
        expect(isWellFormedPersonalAccessToken(changed), `position ${i}`).toBe(false);
      }
    }
  });

  it("catches two swapped neighbouring characters", () => {
    const token = generatePersonalAccessToken();
    let checked = 0;
    for (let i = PAT_PREFIX.length; i < PAT_PREFIX.length + 39; i++) {
      if (token[i] === token[i + 1]) continue;
      const swapped = token.slice(0, i) + token[i + 1] + token[i] + token.slice(i + 2);
      expect(isWellFormedPersonalAccessToken(swapped)).toBe(false);
      checked++;
    }
    expect(checked).toBeGreaterThan(0);
  });

  it.each([
    ["a wrong prefix", (t: string) => `plat_pak_${t.slice(9)}`],
    ["no prefix", (t: string) => t.slice(9)],
    ["one character short", (t: string) => t.slice(0, -1)],
    ["one character long", (t: string) => `${t}a`],
    ["a non-base62 character", (t: string) => `${t.slice(0, 20)}-${t.slice(21)}`],
    ["an empty string", () => ""],
  ])("refuses %s", (_, mutate) => {
    expect(isWellFormedPersonalAccessToken(mutate(generatePersonalAccessToken()))).toBe(false);
  });
});

describe("hashToken and displayPrefix", () => {
  it("hashes with SHA-256 (hex), deterministically and distinctly", () => {
    const token = generatePersonalAccessToken();
    expect(hashToken(token)).toBe(createHash("sha256").update(token).digest("hex"));
    expect(hashToken(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashToken(token)).toBe(hashToken(token));
    expect(hashToken(generatePersonalAccessToken())).not.toBe(hashToken(token));
    expect(hashToken(token)).not.toContain(token.slice(PAT_PREFIX.length));
  });

  it("shows the prefix and the first six characters only", () => {
    const token = generatePersonalAccessToken();
    expect(displayPrefix(token)).toBe(token.slice(0, 15));
    expect(displayPrefix(token).startsWith(PAT_PREFIX)).toBe(true);
  });
});
