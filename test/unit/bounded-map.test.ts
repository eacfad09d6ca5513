import { describe, expect, it } from "vitest";
import { BoundedMap } from "../../lib/bounded-map.ts";

describe("BoundedMap", () => {
  it("forgets the oldest entry when a new key would pass the bound", () => {
    const map = new BoundedMap<string, number>(2);
    map.set("a", 1).set("b", 2).set("c", 3);
    expect([...map.entries()]).toEqual([["b", 2], ["c", 3]]);
  });

  it("replaces a held key in place, forgetting nothing", () => {
    const map = new BoundedMap<string, number>(2);
    map.set("a", 1).set("b", 2).set("a", 10);
    expect([...map.entries()]).toEqual([["a", 10], ["b", 2]]);
  });
});
