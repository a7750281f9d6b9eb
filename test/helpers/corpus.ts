/**
 * A recorded corpus of report bytes: every report a test builds is rendered in every format, and
 * the digest of those renderings is pinned per test. A restructuring of the code must leave every
 * digest as it was; a deliberate change of what a report says re-records the test file's corpus
 * (`UPDATE_CORPUS=1 npx vitest run <file>`) and the diff is reviewed with it.
 *
 * One JSON file per test file under test/golden/corpus/, keyed by the test's full name and the
 * report's number within the test.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { afterAll, expect } from "vitest";
import { FORMAT_NAMES, render } from "../../src/report/index.js";
import { makeStyle } from "../../src/report/style.js";
import type { Report } from "../../src/report/model.js";
import { REPO_ROOT } from "./external.js";

const DIR = join(REPO_ROOT, "test", "golden", "corpus");
const update = process.env.UPDATE_CORPUS === "1";

/** The digest of a report in every format, plain and verbose. */
export function reportDigest(report: Report): string {
  const h = createHash("sha256");
  for (const format of FORMAT_NAMES)
    for (const verbose of [false, true]) {
      h.update(`${format}:${verbose}\n`);
      h.update(render(format, report, { verbose, style: makeStyle(false) }));
    }
  return h.digest("hex");
}

interface Book {
  readonly file: string;
  readonly pinned: Record<string, string>;
  readonly seen: Record<string, string>;
  readonly counts: Map<string, number>;
}

let book: Book | undefined;

function open(): Book {
  if (book) return book;
  const testPath = expect.getState().testPath ?? "unknown";
  const name = relative(join(REPO_ROOT, "test"), testPath)
    .replace(/\.test\.ts$/, "")
    .replace(/[\\/]/g, "--");
  const file = join(DIR, `${name}.json`);
  const pinned = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Record<string, string>) : {};
  const opened: Book = { file, pinned, seen: {}, counts: new Map() };
  book = opened;
  return opened;
}

// Registered when the helper is imported, at the top of the test file's collection.
if (update)
  afterAll(() => {
    if (!book) return;
    mkdirSync(DIR, { recursive: true });
    const sorted = Object.fromEntries(Object.entries(book.seen).sort(([a], [b]) => (a < b ? -1 : 1)));
    writeFileSync(book.file, `${JSON.stringify(sorted, null, 2)}\n`);
  });

/** Pins (or, with UPDATE_CORPUS=1, records) the digest of one report the current test built. */
export function corpusCheck(report: Report): void {
  const b = open();
  const test = expect.getState().currentTestName ?? "outside a test";
  const n = (b.counts.get(test) ?? 0) + 1;
  b.counts.set(test, n);
  const key = `${test} #${n}`;
  const digest = reportDigest(report);
  if (update) {
    b.seen[key] = digest;
    return;
  }
  expect(
    b.pinned[key],
    `report ${key} is not in the corpus ${basename(b.file)}: record it with UPDATE_CORPUS=1 npx vitest run <file>`,
  ).toBeDefined();
  expect(digest, `report bytes of ${key} changed (a deliberate change re-records with UPDATE_CORPUS=1)`).toBe(
    b.pinned[key],
  );
}

/** Pins (or records) the digest of any other rendering the current test built (inspect's, say). */
export function corpusCheckText(label: string, text: string): void {
  const b = open();
  const key = `${expect.getState().currentTestName ?? "outside a test"} ${label}`;
  const digest = createHash("sha256").update(text).digest("hex");
  if (update) {
    b.seen[key] = digest;
    return;
  }
  expect(
    b.pinned[key],
    `${key} is not in the corpus ${basename(b.file)}: record it with UPDATE_CORPUS=1`,
  ).toBeDefined();
  expect(digest, `bytes of ${key} changed (a deliberate change re-records with UPDATE_CORPUS=1)`).toBe(b.pinned[key]);
}
