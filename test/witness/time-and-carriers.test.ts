/** --at (RFC 3339) and the two cosignature carriers: continuityEvidence and a --cosignatures file. */
import { describe, expect, it } from "vitest";
import { fromPlain } from "../../src/json/value.js";
import { parseRfc3339, showTimestamp } from "../../src/witness/time.js";
import { fileLinesFor, parseContinuityEvidence, parseCosignatureFile } from "../../src/witness/evidence.js";

describe("--at: RFC 3339 date-times with an offset only (the grammar every property reads --at with)", () => {
  it.each([
    ["2026-09-10T00:05:10Z", 1788998710n],
    ["2026-09-10T02:05:10+02:00", 1788998710n],
    ["2026-09-09T23:05:10-01:00", 1788998710n],
    ["2026-09-10T00:05:10.999999999Z", 1788998710n],
    ["1970-01-01T00:00:00Z", 0n],
    ["0001-01-01T00:00:00Z", -62135596800n],
    ["2024-02-29T00:00:00Z", 1709164800n],
  ])("%s → %s", (text, seconds) => {
    const r = parseRfc3339(text);
    expect(r.ok && r.value).toBe(seconds);
  });

  it.each([
    "2026-09-10t00:05:10z",
    "2016-12-31T23:59:60Z",
    "2026-09-10",
    "2026-09-10T00:05Z",
    "2026-09-10 00:05:10Z",
    "2026-09-10T00:05:10",
    "2026-02-30T00:00:00Z",
    "2025-02-29T00:00:00Z",
    "2026-13-01T00:00:00Z",
    "2026-09-10T24:00:00Z",
    "2026-09-10T00:05:10+24:00",
    "1788998710",
    "now",
  ])("%s is refused", (text) => {
    const r = parseRfc3339(text);
    expect(r.ok ? "ok" : r.code).toBe("TIME_INVALID");
  });

  it("shows a timestamp with its date while a Date can hold it", () => {
    expect(showTimestamp(1788998710n)).toBe("1788998710 (2026-09-10T00:05:10Z)");
    expect(showTimestamp(2n ** 62n)).toBe("4611686018427387904");
  });
});

const LINE = "— w AQIDBAU=";

describe("continuityEvidence", () => {
  it("reads lines per checkpoint, keeping entries of other types aside", () => {
    const r = parseContinuityEvidence(
      fromPlain([
        { type: "c2sp-cosignature/v1", checkpoint: "current", lines: [LINE] },
        { type: "c2sp-cosignature/v1", checkpoint: "prior", lines: [LINE, LINE] },
        { type: "mldsa-cosignature/v1", whatever: true },
      ]),
      "continuityEvidence",
    );
    if (!r.ok) throw new Error(r.detail);
    expect(r.value.lines.map((l) => `${l.role} ${l.path}`)).toEqual([
      "current continuityEvidence[0].lines[0]",
      "prior continuityEvidence[1].lines[0]",
      "prior continuityEvidence[1].lines[1]",
    ]);
    expect(r.value.unsupported).toEqual([{ path: "continuityEvidence[2]", type: "mldsa-cosignature/v1" }]);
  });

  it.each([
    ["not an array", { lines: [] }, "continuityEvidence"],
    ["an entry not an object", ["x"], "continuityEvidence[0]"],
    ["no type", [{ checkpoint: "current", lines: [] }], "continuityEvidence[0]"],
    [
      "an unknown member",
      [{ type: "c2sp-cosignature/v1", checkpoint: "current", lines: [], note: "x" }],
      "continuityEvidence[0].note",
    ],
    ["no checkpoint", [{ type: "c2sp-cosignature/v1", lines: [] }], "continuityEvidence[0]"],
    [
      "another checkpoint",
      [{ type: "c2sp-cosignature/v1", checkpoint: "next", lines: [] }],
      "continuityEvidence[0].checkpoint",
    ],
    [
      "lines not an array",
      [{ type: "c2sp-cosignature/v1", checkpoint: "current", lines: LINE }],
      "continuityEvidence[0].lines",
    ],
    [
      "a line not a string",
      [{ type: "c2sp-cosignature/v1", checkpoint: "current", lines: [1] }],
      "continuityEvidence[0].lines[0]",
    ],
    [
      "an over-long line",
      [{ type: "c2sp-cosignature/v1", checkpoint: "current", lines: ["x".repeat(4097)] }],
      "continuityEvidence[0].lines[0]",
    ],
    [
      "65 lines in one entry",
      [{ type: "c2sp-cosignature/v1", checkpoint: "current", lines: Array(65).fill(LINE) }],
      "continuityEvidence[0].lines",
    ],
    [
      "65 lines for one checkpoint over two entries",
      [32, 33].map((n) => ({ type: "c2sp-cosignature/v1", checkpoint: "prior", lines: Array(n).fill(LINE) })),
      "continuityEvidence[1].lines",
    ],
    ["65 entries", Array(65).fill({ type: "other" }), "continuityEvidence"],
  ])("%s: malformed at its path", (_, v, path) => {
    const r = parseContinuityEvidence(fromPlain(v), "continuityEvidence");
    expect(r.ok ? "ok" : [r.code, r.path]).toEqual(["COSIGNATURE_EVIDENCE_MALFORMED", path]);
  });
});

describe("--cosignatures file", () => {
  const NOTE_C = "o\n5\nroot=\n";
  const NOTE_P = "o\n3\nroot=\n";
  it("an entry counts for the checkpoint whose note it names, byte for byte; the others are counted as other notes", () => {
    const file = parseCosignatureFile(
      fromPlain([
        { type: "c2sp-cosignature/v1", note: NOTE_C, lines: [LINE] },
        { type: "c2sp-cosignature/v1", note: NOTE_P, lines: [LINE] },
        { type: "c2sp-cosignature/v1", note: NOTE_C.replace("\n", "\r\n"), lines: [LINE] },
      ]),
    );
    if (!file.ok) throw new Error(file.detail);
    const m = fileLinesFor(file.value, { current: NOTE_C, prior: NOTE_P });
    expect(m.lines.map((l) => `${l.role} ${l.path}`)).toEqual([
      "current --cosignatures[0].lines[0]",
      "prior --cosignatures[1].lines[0]",
    ]);
    expect(m.otherNotes).toBe(1);
    // A note that cannot be rendered matches nothing.
    expect(fileLinesFor(file.value, { current: undefined, prior: undefined }).otherNotes).toBe(3);
  });

  it.each([
    [
      "a checkpoint member instead of a note",
      [{ type: "c2sp-cosignature/v1", checkpoint: "current", lines: [] }],
      "--cosignatures[0].checkpoint",
    ],
    ["a note that is not a string", [{ type: "c2sp-cosignature/v1", note: 5, lines: [] }], "--cosignatures[0].note"],
    [
      "65 lines for one note",
      [32, 33].map((n) => ({ type: "c2sp-cosignature/v1", note: NOTE_C, lines: Array(n).fill(LINE) })),
      "--cosignatures[1].lines",
    ],
    ["an object, not an array", { cosignatures: [] }, "--cosignatures"],
  ])("%s: malformed at its path", (_, v, path) => {
    const r = parseCosignatureFile(fromPlain(v));
    expect(r.ok ? "ok" : [r.code, r.path]).toEqual(["COSIGNATURE_EVIDENCE_MALFORMED", path]);
  });
});
