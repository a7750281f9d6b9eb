import { describe, expect, it } from "vitest";
import { formatPath, joinPath } from "../../src/json/path.js";

describe("JSON paths", () => {
  it("formats members, indexes and quoted names", () => {
    expect(formatPath([])).toBe("$");
    expect(formatPath(["result", "artifacts", 1, "parts", 0, "raw"])).toBe("result.artifacts[1].parts[0].raw");
    expect(formatPath([0, "a"])).toBe("[0].a");
    expect(formatPath(["metadata", "https://example/ext/v1"])).toBe('metadata["https://example/ext/v1"]');
    expect(formatPath(["", "1a", "a-b", "_a$1"])).toBe('[""]["1a"]["a-b"]._a$1');
  });

  it("appends to a formatted path as formatting the whole would", () => {
    expect(joinPath("$")).toBe("$");
    expect(joinPath("")).toBe("$");
    expect(joinPath("$", "result")).toBe("result");
    expect(joinPath("$", 2)).toBe("[2]");
    expect(joinPath("result")).toBe("result");
    expect(joinPath("result", "history", 3)).toBe("result.history[3]");
    expect(joinPath("result.history[3]", "parts", 0)).toBe("result.history[3].parts[0]");
    expect(joinPath("result", "history", 3, "parts", 0)).toBe("result.history[3].parts[0]");
    expect(joinPath("task", "metadata", "https://x/y", "key")).toBe('task.metadata["https://x/y"].key');
    expect(joinPath("$", "a b", "c")).toBe('["a b"].c');
  });

  it("tells names apart the same way however many it has seen", () => {
    // Past the names it remembers, each is still tested as it comes.
    for (let i = 0; i < 1100; i++) {
      expect(joinPath("m", `k${i}`)).toBe(`m.k${i}`);
      expect(joinPath("m", `${i}k`)).toBe(`m["${i}k"]`);
    }
    expect(joinPath("m", "k5")).toBe("m.k5");
    expect(joinPath("m", "5k")).toBe('m["5k"]');
  });
});
