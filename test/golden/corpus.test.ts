/**
 * The recorded corpus over the shipped vectors: each vector's report in every format (with its
 * trust file and without), its inspect explanation, and one run over every vector together, so the
 * cross-input passes are pinned too. See test/helpers/corpus.ts.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "vitest";
import { verify } from "../../src/verify.js";
import { inspect } from "../../src/inspect/index.js";
import { renderExplanationJson } from "../../src/inspect/json.js";
import { renderExplanationText } from "../../src/inspect/text.js";
import { corpusCheck, corpusCheckText } from "../helpers/corpus.js";
import { REPO_ROOT } from "../helpers/external.js";

const VECTORS = join(REPO_ROOT, "vectors");
const names = readdirSync(VECTORS)
  .filter((n) => existsSync(join(VECTORS, n, "expected.json")))
  .sort();
const inputFile = (dir: string) =>
  ["input.json", "input.sse", "input.ndjson", "input.binpb", "input.grpc"].find((f) =>
    existsSync(join(dir, f)),
  ) as string;
const inputOf = (name: string) => {
  const dir = join(VECTORS, name);
  return { source: `${name}/${inputFile(dir)}`, data: readFileSync(join(dir, inputFile(dir))) };
};

describe("recorded report corpus of the shipped vectors", () => {
  for (const name of names) {
    it(`${name}`, () => {
      const trust = readFileSync(join(VECTORS, name, "trust.json"));
      corpusCheck(verify({ inputs: [inputOf(name)], trust }));
      corpusCheck(verify({ inputs: [inputOf(name)] }));
      for (const [label, options] of [
        ["inspect", { bytes: false, all: false }],
        ["inspect --bytes --all", { bytes: true, all: true }],
      ] as const) {
        const explained = inspect({ ...inputOf(name), trust }, options);
        corpusCheckText(
          `${label} json`,
          JSON.stringify(explained.ok ? renderExplanationJson(explained.value) : explained),
        );
        if (explained.ok) corpusCheckText(`${label} text`, renderExplanationText(explained.value));
      }
    });
  }
  it("every vector in one run", () => {
    corpusCheck(verify({ inputs: names.map(inputOf) }));
    corpusCheck(
      verify({ inputs: names.map(inputOf), trust: readFileSync(join(VECTORS, "valid-minimal", "trust.json")) }),
    );
  });
});
