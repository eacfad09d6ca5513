import { describe, expect, it } from "vitest";
import { CARD_REVEAL_WINDOW_MS, CARD_REVEALS_PER_WINDOW } from "../../lib/contracts/cards.ts";
import { buildOpenApiDocument } from "../../rest-adapter/route-kit/openapi.ts";
import { cardSecureDetailsRoutes } from "../../rest-adapter/routes/card-secure-details.ts";
import { cardDetailsMessage } from "../../subgraphs/finance/cards/card-details-challenge.ts";
import { revealRetryAfterSeconds } from "../../subgraphs/finance/cards/reveal-card-details.ts";
import { responsesOf } from "../support/openapi-document.ts";

const NOW = new Date("2026-11-23T12:00:00.000Z");
const minutesAgo = (minutes: number) => new Date(NOW.getTime() - minutes * 60_000);

describe("the per-card reveal limit", () => {
  it(`allows ${CARD_REVEALS_PER_WINDOW} reveals in any rolling hour`, () => {
    expect(CARD_REVEALS_PER_WINDOW).toBe(5);
    expect(CARD_REVEAL_WINDOW_MS).toBe(3_600_000);
    expect(revealRetryAfterSeconds([], NOW)).toBeNull();
    expect(revealRetryAfterSeconds([1, 2, 3, 4].map(minutesAgo), NOW)).toBeNull();
  });

  it("refuses the next one until the oldest counting reveal leaves the hour", () => {
    expect(revealRetryAfterSeconds([50, 40, 30, 20, 10].map(minutesAgo), NOW)).toBe(10 * 60);
    // reveals older than the hour do not count
    expect(revealRetryAfterSeconds([90, 70, 40, 30, 20, 10].map(minutesAgo), NOW)).toBeNull();
    // with more than the limit in the window, the one that frees a place decides
    expect(revealRetryAfterSeconds([55, 50, 40, 30, 20, 10].map(minutesAgo), NOW)).toBe(10 * 60);
    // never less than a second
    expect(revealRetryAfterSeconds([59.995, 4, 3, 2, 1].map(minutesAgo), NOW)).toBe(1);
  });
});

describe("the challenge's message", () => {
  it("names the platform host, the card's last four, the challenge, the signer and the expiry", () => {
    const message = cardDetailsMessage({ host: "api.example.com", last_four: "4242", card_id: "crd_1", challenge_id: "cdc_1", address: "0x52908400098527886E0F7030069857D2E4169EE7", expires_at: NOW });
    expect(message.split("\n")).toEqual([
      "api.example.com asks you to reveal the number, CVV and expiry of your card ending in 4242.",
      "Sign only if you started this yourself; the details are shown once.",
      "",
      "Card: crd_1",
      "Address: 0x52908400098527886E0F7030069857D2E4169EE7",
      "Challenge ID: cdc_1",
      "Expires At: 2026-11-23T12:00:00.000Z",
    ]);
  });
});

describe("the secure-details routes", () => {
  it("take a JWT only and document Cache-Control: no-store on every answer of the reveal", () => {
    for (const route of cardSecureDetailsRoutes) expect(route.security).toEqual(["PlatformJwt"]);
    const document = buildOpenApiDocument({ title: "t", description: "d", serverUrl: "https://api.example.com", routes: cardSecureDetailsRoutes }) as any;
    const responses = responsesOf(document, document.paths["/v0/cards/{card_id}/secure-details"].post) as Record<string, { headers?: Record<string, { schema: unknown }> }>;
    for (const status of ["200", "403", "404", "409", "429"]) expect(responses[status]!.headers?.["cache-control"]?.schema).toEqual({ type: "string", const: "no-store" });
    expect(document.paths["/v0/cards/{card_id}/secure-details/challenge"].post.responses["201"].headers).toBeUndefined();
  });
});
