/**
 * The recorded corpus over the shipped vectors: each vector's report in every format (with its
 * trust file and without), its inspect explanation, and one run over every vector together, so the
 * cross-input passes are pinned too. See test/helpers/corpus.ts.
 *
 * Each vector is verified and explained with what its `args.json` adds (its first Task, the
 * caller's time), as the pinned golden reports are. The run over every vector together takes none:
 * a run has one --first-task and one --at for all its inputs, and the vectors give different ones.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "vitest";
import { verify } from "../../src/verify.js";
import { inspect } from "../../src/inspect/index.js";
import { renderExplanationJson } from "../../src/inspect/json.js";
import { renderExplanationText } from "../../src/inspect/text.js";
import { corpusCheck, corpusCheckText } from "../helpers/corpus.js";
import { namedVectorInput, shippedVectorNames, SHIPPED_VECTORS, vectorExtra } from "../helpers/vector-input.js";

const names = shippedVectorNames();

describe("recorded report corpus of the shipped vectors", () => {
  for (const name of names) {
    it(`${name}`, () => {
      const dir = join(SHIPPED_VECTORS, name);
      const trust = readFileSync(join(dir, "trust.json"));
      const extra = vectorExtra(dir);
      corpusCheck(verify({ inputs: [namedVectorInput(name)], ...extra, trust }));
      corpusCheck(verify({ inputs: [namedVectorInput(name)], ...extra }));
      for (const [label, options] of [
        ["inspect", { bytes: false, all: false }],
        ["inspect --bytes --all", { bytes: true, all: true }],
      ] as const) {
        const explained = inspect({ ...namedVectorInput(name), ...extra, trust }, options);
        corpusCheckText(
          `${label} json`,
          JSON.stringify(explained.ok ? renderExplanationJson(explained.value) : explained),
        );
        if (explained.ok) corpusCheckText(`${label} text`, renderExplanationText(explained.value));
      }
    });
  }
  it("every vector in one run", () => {
    corpusCheck(verify({ inputs: names.map(namedVectorInput) }));
    corpusCheck(
      verify({
        inputs: names.map(namedVectorInput),
        trust: readFileSync(join(SHIPPED_VECTORS, "valid-minimal", "trust.json")),
      }),
    );
  });
});
