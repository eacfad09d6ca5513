import { describe, expect, it } from "vitest";
import { negotiateCoding } from "../../lib/static-body.ts";

// The documents and Swagger UI's assets go out compressed to clients that accept it
// (test/e2e/platform/docs.test.ts serves them); which coding an Accept-Encoding asks for:
describe("negotiateCoding", () => {
  it.each([
    [undefined, "identity"],
    ["", "identity"],
    ["identity", "identity"],
    ["gzip", "gzip"],
    ["gzip, deflate, br, zstd", "br"],
    ["gzip;q=1, br;q=0.5", "gzip"],
    ["br;q=0, gzip", "gzip"],
    ["GZIP", "gzip"],
    ["*", "br"],
    ["*;q=0", "identity"],
    ["gzip;q=0, br;q=0", "identity"],
    ["deflate", "identity"],
    ["*, br;q=0", "gzip"],
  ] as const)("Accept-Encoding %j: %s", (header, coding) => {
    expect(negotiateCoding(header)).toBe(coding);
  });
});
