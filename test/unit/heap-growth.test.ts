import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../lib/config.ts";
import { applyHeapGrowth } from "../../lib/heap-growth.ts";

describe("HEAP_GROWING_PERCENT", () => {
  it("is 50 unless set, and 0 (V8's own factor) is accepted", () => {
    expect(loadConfig({}).heapGrowingPercent).toBe(50);
    expect(loadConfig({ HEAP_GROWING_PERCENT: "0" }).heapGrowingPercent).toBe(0);
    expect(loadConfig({ HEAP_GROWING_PERCENT: "100" }).heapGrowingPercent).toBe(100);
  });

  it.each(["-1", "1.5", "fifty"])("refuses %s naming the variable", (value) => {
    expect(() => loadConfig({ HEAP_GROWING_PERCENT: value })).toThrow(ConfigError);
    expect(() => loadConfig({ HEAP_GROWING_PERCENT: value })).toThrow(/HEAP_GROWING_PERCENT/);
  });
});

describe("applyHeapGrowth", () => {
  it("sets V8's flag to the configured percent", () => {
    const set: string[] = [];
    expect(applyHeapGrowth(50, ["--enable-source-maps"], (flags) => set.push(flags))).toBe(true);
    expect(applyHeapGrowth(0, [], (flags) => set.push(flags))).toBe(true);
    expect(set).toEqual(["--heap-growing-percent=50", "--heap-growing-percent=0"]);
  });

  it.each([["--heap-growing-percent=75"], ["--heap_growing_percent=75"], ["--heap-growing-percent", "75"]])("leaves the flag to node's command line when it names it: %s", (...execArgv) => {
    const set: string[] = [];
    expect(applyHeapGrowth(50, execArgv, (flags) => set.push(flags))).toBe(false);
    expect(set).toEqual([]);
  });

  it("does not take a longer flag of another name for it", () => {
    const set: string[] = [];
    expect(applyHeapGrowth(50, ["--heap-growing-percentage=75"], (flags) => set.push(flags))).toBe(true);
    expect(set).toEqual(["--heap-growing-percent=50"]);
  });
});
