/**
 * §9.17: in a structured carrier, number widening excuses only a digest mismatch it explains;
 * a mismatch that persists under every narrowing is a FAIL, and widening never excuses a signature.
 */
import { JsonNumber, type JsonObject, type JsonValue } from "../../../src/json/value.js";
import { sha256Hex, utf8 } from "../../../src/util/bytes.js";
import type { ExchangeOptions } from "../../../producer/options.js";
import { widened } from "../../properties/harness.js";
import { arrayAt, copy, honest, objectAt, requestOf, type AdversarialCase } from "../harness.js";

const DATA: ExchangeOptions = { carrier: "data" };

/** The bundle object inside the evidence Artifact's data part of a terminal Task. */
function dataBundle(task: JsonObject): JsonObject {
  const artifacts = arrayAt(task, "artifacts");
  return objectAt(artifacts[artifacts.length - 1] as JsonValue, "parts", 0, "data");
}

/** 2^53 + 1 as an exact integer lexeme, and as a Python emitter prints the double it becomes. */
const UNSAFE = "9007199254740993";
const UNSAFE_WIDENED = "9007199254740992.0";

/** An honest data-part exchange whose payload the producer sealed with `count` unsafe integers. */
function sealedWithUnsafe(count: number) {
  return honest({
    ...DATA,
    tamper: { payload: (p) => void (p.padding = Array.from({ length: count }, () => new JsonNumber(UNSAFE))) },
  });
}

/** The payload and its manifest copy. */
const payloadCopies = (bundle: JsonObject): JsonObject[] => [
  objectAt(bundle, "taskEvidencePayload"),
  objectAt(bundle, "manifest", "taskEvidencePayload"),
];

/** Every integer of the data part written as a Python double (1 → 1.0). */
function widenAll(task: JsonObject): void {
  const artifacts = arrayAt(task, "artifacts");
  const part = objectAt(artifacts[artifacts.length - 1] as JsonValue, "parts", 0);
  part.data = widened(part.data as JsonObject);
}

/** The carried bundle's unsafe integers written as a Python emitter writes the doubles they became. */
function widenUnsafe(bundle: JsonObject): void {
  for (const payload of payloadCopies(bundle)) {
    payload.padding = (payload.padding as JsonValue[]).map(() => new JsonNumber(UNSAFE_WIDENED));
  }
}

/** The exchange's request with its terminal Task replaced by a changed copy (nothing re-signed: the carrier's doing). */
function carried(e: ReturnType<typeof honest>, change: (task: JsonObject) => void) {
  const task = copy(e.finalTask);
  change(task);
  return requestOf({ ...e, input: { ...copy(e.input), finalTask: task } as JsonObject });
}

export const WIDENING_CASES: readonly AdversarialCase[] = [
  {
    name: "tampered payload behind an unsafe integer",
    rule: "§9.17",
    attack:
      "in a data part, an unsafe integer added to both payload copies and the artifact commitment changed to match forged artifact text",
    request: () =>
      carried(honest(DATA), (t) => {
        const forged = "EUR/USD 0.9000";
        objectAt(t, "artifacts", 0, "parts", 0).text = forged;
        for (const payload of payloadCopies(dataBundle(t))) {
          payload.padding = new JsonNumber(UNSAFE);
          objectAt(payload, "nonEvidenceArtifacts", 0).contentCommitment = sha256Hex(
            utf8(`${forged}\nvalid until 09:30:30Z`),
          );
        }
      }),
    expected: { exitCode: 1, property: "contentBinding", state: "FAIL", check: "evidenceId.recompute" },
  },
  {
    name: "more than 256 widened candidates",
    rule: "§9.17",
    attack:
      "nine unsafe integers sealed in the payload, each widened to a double by the carrier: 2^9 candidate preimages",
    request: () => carried(sealedWithUnsafe(9), (t) => widenUnsafe(dataBundle(t))),
    expected: {
      exitCode: 3,
      property: "contentBinding",
      state: "INCONCLUSIVE",
      check: "evidenceId.recompute",
      detail: /too many widened candidates/,
    },
  },
  {
    name: "one unsafe integer widened by the carrier",
    rule: "§9.17",
    attack:
      "(control) an unsafe integer the producer sealed, printed by the carrier as the double it became: narrowing explains it",
    request: () => carried(sealedWithUnsafe(1), (t) => widenUnsafe(dataBundle(t))),
    expected: { exitCode: 3, property: "contentBinding", state: "INCONCLUSIVE", check: "evidenceId.recompute" },
  },
  {
    name: "integers widened to 1.0 by the carrier",
    rule: "§9.17",
    attack: "(control) every integer of the data part written as a Python double (1 → 1.0)",
    request: () => carried(honest(DATA), widenAll),
    expected: {
      exitCode: 3,
      property: "contentBinding",
      state: "INCONCLUSIVE",
      check: "evidenceId.recompute",
      intact: ["producerSignature"],
    },
  },
  {
    name: "widening does not excuse a re-dated checkpoint",
    rule: "§9.17",
    attack: "in a widened data part, the checkpoint's timestamp changed after signing",
    request: () =>
      carried(honest(DATA), (t) => {
        widenAll(t);
        objectAt(dataBundle(t), "manifest", "cllCheckpoint").timestamp = "2026-10-01T09:30:01.254107Z";
      }),
    expected: {
      exitCode: 1,
      property: "checkpointSignature",
      state: "FAIL",
      check: "checkpoint.signature",
      intact: ["producerSignature"],
    },
  },
];
