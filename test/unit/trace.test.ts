import { describe, expect, it } from "vitest";
import { traceIdFrom } from "../../lib/trace.ts";

const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const traceparent = (traceId = TRACE) => `00-${traceId}-00f067aa0ba902b7-01`;

describe("traceIdFrom", () => {
  it("takes the trace id of a W3C traceparent, over any x-request-id", () => {
    expect(traceIdFrom({ traceparent: traceparent() })).toBe(TRACE);
    expect(traceIdFrom({ traceparent: traceparent(), "x-request-id": "req-1" })).toBe(TRACE);
    expect(traceIdFrom({ traceparent: ` ${traceparent().toUpperCase()} ` })).toBe(TRACE);
    expect(traceIdFrom({ traceparent: [traceparent(), traceparent("1".repeat(32))] })).toBe(TRACE);
  });

  it.each([
    ["all-zero trace id", traceparent("0".repeat(32))],
    ["short trace id", traceparent("abc")],
    ["not hex", traceparent("z".repeat(32))],
    ["missing parts", `00-${TRACE}`],
    ["garbage", "hello"],
  ])("ignores an invalid traceparent (%s) and falls back to x-request-id", (_, value) => {
    expect(traceIdFrom({ traceparent: value, "x-request-id": "req-42" })).toBe("req-42");
  });

  it("takes a sane x-request-id (word characters, dot, colon, dash; up to 128)", () => {
    expect(traceIdFrom({ "x-request-id": "abc-123_DEF.ghi:jkl" })).toBe("abc-123_DEF.ghi:jkl");
    expect(traceIdFrom({ "x-request-id": " padded " })).toBe("padded");
    expect(traceIdFrom({ "x-request-id": "x".repeat(128) })).toBe("x".repeat(128));
    expect(traceIdFrom({ "x-request-id": ["first", "second"] })).toBe("first");
  });

  it.each([["too long", "x".repeat(129)], ["spaces", "has space"], ["injection", "a\nb"], ["slash", "a/b"], ["empty", ""]])(
    "generates a fresh 32-hex id instead of an unsafe x-request-id (%s)",
    (_, value) => {
      const id = traceIdFrom({ "x-request-id": value });
      expect(id).toMatch(/^[0-9a-f]{32}$/);
      expect(id).not.toBe(value);
    },
  );

  it("generates a different id per request when nothing arrives", () => {
    const ids = new Set(Array.from({ length: 50 }, () => traceIdFrom({})));
    expect(ids.size).toBe(50);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{32}$/);
  });

  it("generates distinct 32-hex ids, across the refills of its pool of random bytes", () => {
    const ids = Array.from({ length: 1_000 }, () => traceIdFrom({}));
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
