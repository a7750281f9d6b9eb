/**
 * A Part's content in the copies of the first Message (contract §3; a2a-wire.md §1.1, §1.5): the
 * content is a oneof member, set whatever its value. `data` is a google.protobuf.Value, where `{}`
 * and `[]` are two values, not two spellings of absence; `raw` is bytes, which a ProtoJSON client
 * may send in the URL-safe alphabet without padding and a server echoes as standard padded base64.
 */
import { describe, expect, it } from "vitest";
import { fromPlain, type JsonObject, type JsonValue } from "../../src/json/value.js";
import { verify } from "../../src/verify.js";
import { isFailedInput, type VerifiedInput } from "../../src/report/model.js";
import { copy, honest, objectAt } from "../adversarial/harness.js";

const e = honest();

/** The capture with a second Part in the first Message: `sent` in the caller's request, `shown` in each server copy. */
function capture(sent: JsonValue, shown: JsonValue, withRequest = true): JsonObject {
  const firstTask = copy(e.firstTask);
  const finalTask = copy(e.finalTask);
  const request = copy(objectAt(firstTask, "history", 0));
  delete request.contextId;
  delete request.taskId;
  (request.parts as JsonValue[]).push(copy(sent as JsonObject));
  for (const task of [firstTask, finalTask])
    (objectAt(task, "history", 0).parts as JsonValue[]).push(copy(shown as JsonObject));
  return fromPlain({ firstTask, finalTask, ...(withRequest ? { request } : {}) }) as JsonObject;
}

function run(data: JsonObject): VerifiedInput {
  const report = verify({ inputs: [{ source: "capture", data }], trust: e.trust });
  const input = report.inputs[0];
  if (!input || isFailedInput(input)) throw new Error(`input failed: ${JSON.stringify(input ?? report.error)}`);
  return input;
}

const checkOf = (r: VerifiedInput, id: string) =>
  Object.values(r.properties)
    .flatMap((p) => p.checks)
    .find((c) => c.id === id);

const failing = (r: VerifiedInput) =>
  Object.entries(r.properties).flatMap(([name, p]) =>
    p.checks.filter((c) => c.state === "FAIL").map((c) => `${name} ${c.id}`),
  );

describe("a data Part's value is a value, not a default", () => {
  it("the caller sent data {}, the server shows data []: another Message, transcript.request FAILs, exit 1", () => {
    const r = run(capture({ data: {} }, { data: [] }));
    expect(checkOf(r, "transcript.request")).toMatchObject({ state: "FAIL" });
    expect(checkOf(r, "transcript.request")?.detail).toMatch(/shows \[…0\] at parts\[1\]\.data, the caller sent \{…\}/);
    expect(r.properties.taskBinding.state).toBe("FAIL");
    expect(r.exitCode).toBe(1);
  });

  it("without a request, the first Task's copy shows data false and the terminal Task's data \"\": the copies disagree, FAIL, exit 1", () => {
    const data = capture({ data: false }, { data: false }, false);
    objectAt(data, "finalTask", "history", 0, "parts", 1).data = "";
    const r = run(data);
    expect(checkOf(r, "requirement.copiesAgree")).toMatchObject({ state: "FAIL" });
    expect(failing(r)).toEqual(["taskBinding transcript.request", "negotiation requirement.copiesAgree"]);
    expect(r.properties.negotiation.state).toBe("FAIL");
    expect(r.exitCode).toBe(1);
  });

  it("look-alike: data {} in every copy, the Part's members in another order, is one Message: nothing FAILs", () => {
    const r = run(capture({ data: {}, mediaType: "application/json" }, { mediaType: "application/json", data: {} }));
    expect(checkOf(r, "transcript.request")).toMatchObject({ state: "PASS" });
    expect(failing(r)).toEqual([]);
    expect(r.exitCode).not.toBe(1);
  });
});

describe("a raw Part's bytes, however ProtoJSON spells them", () => {
  it("the caller sent URL-safe unpadded base64, the server echoes it standard and padded: one Message, nothing FAILs", () => {
    const r = run(capture({ raw: "-_8" }, { raw: "+/8=" }));
    expect(checkOf(r, "transcript.request")).toMatchObject({ state: "PASS" });
    expect(failing(r)).toEqual([]);
    expect(r.exitCode).not.toBe(1);
  });

  it("other bytes are another Message: transcript.request FAILs, exit 1", () => {
    const r = run(capture({ raw: "-_8" }, { raw: "+/9=" }));
    expect(checkOf(r, "transcript.request")).toMatchObject({ state: "FAIL" });
    expect(r.properties.taskBinding.state).toBe("FAIL");
    expect(r.exitCode).toBe(1);
  });

  it("text that is no base64 is compared as written: a server that repairs it shows another Message, FAIL, exit 1", () => {
    const r = run(capture({ raw: "+/8" + "=".repeat(3) }, { raw: "+/8=" }));
    expect(checkOf(r, "transcript.request")).toMatchObject({ state: "FAIL" });
    expect(r.exitCode).toBe(1);
  });
});
