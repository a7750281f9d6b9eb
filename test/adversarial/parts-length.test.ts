/**
 * part-commitments.md §2: a RESOLVED url commitment's `length` is the count of the bytes resolved.
 * A negative, fractional or exponent lexeme is no byte count: parts.digest FAILs, where a PASS
 * said "committed RESOLVED to -5 bytes" when no --resolved file was given.
 */
import { describe, expect, it } from "vitest";
import { JsonNumber, fromPlain, type JsonValue } from "../../src/json/value.js";
import { readTask } from "../../src/input/a2a.js";
import { partsChecks } from "../../src/properties/task-binding/parts.js";
import type { Check } from "../../src/properties/shared/types.js";
import { sha256HexOfText } from "../../src/util/bytes.js";

const URL = "https://files.example/report.pdf";

function judge(length: string): Check[] {
  const task = readTask(
    fromPlain({
      id: "t",
      status: { state: "TASK_STATE_COMPLETED" },
      history: [{ messageId: "m", role: "ROLE_AGENT", parts: [{ url: URL }] }],
    }),
    "$",
  );
  if (!task.ok) throw new Error(task.detail);
  const pc = fromPlain({
    kind: "url",
    locator: sha256HexOfText(URL),
    mediaType: null,
    resolution: "RESOLVED",
    digest: "c644f26a0d71bd3bbb2ef5e90ba41b6f10a19ca99934fb9e784edfafd3b2620c",
    length: new JsonNumber(length),
  });
  const make = (id: string, state: Check["state"], detail: string): Check => ({ id, state, detail }) as Check;
  return partsChecks(
    { present: true, partCommitments: [pc] as JsonValue },
    task.value.history?.[0]?.parts ?? [],
    "message m",
    "s",
    { requireAll: false, used: new Set() },
    make,
  );
}

describe("a RESOLVED url commitment's length is a byte count", () => {
  for (const bad of ["-5", "15.0", "1.5e1"]) {
    it(`length ${bad}: parts.digest FAIL`, () => {
      const [c] = judge(bad);
      expect([c?.id, c?.state]).toEqual(["parts.digest", "FAIL"]);
      expect(c?.detail).toMatch(/a RESOLVED commitment needs a lowercase hex digest and an integer length/);
    });
  }
  it("(control) length 15: parts.digest PASS, parts.url PASS naming 15 bytes", () => {
    const checks = judge("15");
    expect(checks.map((c) => `${c.id} ${c.state}`)).toEqual(["parts.digest PASS", "parts.url PASS"]);
    expect(checks[1]?.detail).toMatch(/committed RESOLVED to 15 bytes/);
  });
});
