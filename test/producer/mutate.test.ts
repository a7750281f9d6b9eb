/**
 * The re-signing mutator derives exactly what the producer derives: with no change it gives the
 * exchange back byte for byte (every carrier, envelope, prior checkpoint, ES256 and stub stamp),
 * and a payload or manifest change gives the same bytes as building the exchange with the
 * producer's own hook — so a re-signed mutant is an honest producer's record of that change.
 */
import { describe, expect, it } from "vitest";
import { sha256Hex, utf8 } from "../../src/util/bytes.js";
import { uuidFromLabel } from "../../producer/a2a.js";
import { buildExchange, type Exchange } from "../../producer/exchange.js";
import { jsonText } from "../../producer/json-text.js";
import { arrayAt, objectAt } from "../../producer/mutations.js";
import { resign, signer } from "../../producer/mutate.js";
import { VECTORS } from "../../producer/vectors.js";
import { verify } from "../../src/index.js";
import { isFailedInput } from "../../src/report/model.js";

const text = (e: Exchange) => [jsonText(e.input), jsonText(e.bundle), jsonText(e.trust)];
const definition = (name: string) => VECTORS.find((v) => v.name === name)!;

describe("resign", () => {
  // Not re-derivable: continuity cosignatures, a log holding a Task's interim records beside the
  // terminal one (the mutator rebuilds a log of one record), and a Task that has not ended (no record).
  const resignable = VECTORS.filter(
    (v) =>
      v.mutation === null &&
      v.options.continuity === undefined &&
      (v.options.interim ?? []).length === 0 &&
      v.expected.properties !== null,
  );
  it.each(resignable.map((v) => v.name))("gives %s back byte for byte when nothing changes", (name) => {
    const e = buildExchange(definition(name).options);
    expect(text(resign(e))).toEqual(text(e));
  });

  it.each([
    "neg-taskBinding-task-id",
    "neg-taskBinding-artifact-commitment",
    "neg-localInclusion-witness-hash",
    "neg-continuity-consistency-proof",
  ])("derives %s from valid-capture as the producer's hook does", (name) => {
    const def = definition(name);
    const base = buildExchange({ ...def.options, tamper: {} });
    const mutant = resign(base, { payload: def.options.tamper?.payload, manifest: def.options.tamper?.manifest });
    expect(text(mutant)).toEqual(text(buildExchange(def.options)));
  });

  it("re-signs a manifest change: the checkpoint signature and its receipt follow the new timestamp", () => {
    const base = buildExchange(definition("valid-capture").options);
    const mutant = resign(base, {
      manifest: (m) => void (objectAt(m, "cllCheckpoint").timestamp = "2026-10-01T09:30:01.254107Z"),
    });
    const report = verify({ inputs: [{ source: "mutant", data: mutant.input }], trust: mutant.trust });
    const input = report.inputs[0]!;
    if (isFailedInput(input)) throw new Error(input.error.message);
    expect([
      input.properties.checkpointSignature.state,
      input.properties.externalRegistration.state,
      report.policy.exitCode,
    ]).toEqual(["PASS", "PASS", 0]);
    expect(objectAt(mutant.bundle, "manifest", "cllCheckpoint").timestamp).toBe("2026-10-01T09:30:01.254107Z");
  });

  it("signs with the keys it is given: the capsule, the checkpoints and the envelope follow", () => {
    const other = signer("another producer");
    const mutant = resign(buildExchange(definition("valid-capture").options), {}, { producer: other });
    expect(objectAt(mutant.bundle, "capsule").key_id).toBe(other.publicKeyHex);
    expect(objectAt(mutant.bundle, "manifest", "cllCheckpoint").key_id).toBe(other.publicKeyHex);
    expect(objectAt(mutant.bundle, "manifest", "priorCheckpoint").key_id).toBe(other.publicKeyHex);
    expect(mutant.keys.producer.publicKeyHex).toBe(other.publicKeyHex);
  });

  it("refuses a log it did not build rather than guessing at it", () => {
    const base = buildExchange(definition("valid-capture").options);
    const foreign = {
      ...base,
      bundle: resign(base, {
        manifest: (m) => void (arrayAt(m, "localInclusionProof", "witness")[0] = sha256Hex(utf8("x"))),
      }).bundle,
    };
    expect(() => resign(foreign, { payload: (p) => void (p.taskId = uuidFromLabel("x")) })).toThrow(
      /not built by this producer/,
    );
  });

  it("refuses to re-register a stamp under a key other than the one the exchange was built with", () => {
    const custom = buildExchange({
      ...definition("valid-capture").options,
      witnesses: [{ url: "https://ts.a2a-evidence.example", treeSize: 7, leafIndex: 4, keyLabel: "log key" }],
    });
    expect(() => resign(custom)).toThrow(/pass keys.transparencyService/);
    expect(text(resign(custom, {}, { transparencyService: () => signer("log key") }))).toEqual(text(custom));
  });

  it("refuses an exchange whose checkpoints continuity witnesses cosigned", () => {
    const continuity = VECTORS.find((v) => v.mutation === null && v.options.continuity !== undefined);
    expect(continuity, "a valid continuity vector").toBeDefined();
    expect(() => resign(buildExchange(continuity!.options))).toThrow(/continuity cosignatures/);
  });
});
