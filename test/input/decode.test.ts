import { readFileSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { classify, classifyInput } from "../../src/input/classify.js";
import { asJsonInput, toInputValue } from "../../src/input/decode.js";
import { decodedDocument, isEventArray } from "../../src/input/decoded.js";
import { INPUT_FORMS, JSON_DOCUMENT } from "../../src/input/forms.js";
import { loadCallerObservation } from "../../src/input/load.js";
import { foldStreamArray, isFoldedStream } from "../../src/input/stream/fold.js";
import { fromPlain, toPlain, type JsonValue } from "../../src/json/value.js";

const task = { task: { id: "t1", contextId: "c1", status: { state: "TASK_STATE_WORKING" } } };
const done = { statusUpdate: { taskId: "t1", contextId: "c1", status: { state: "TASK_STATE_COMPLETED" } } };
const sse = (...events: unknown[]) => events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join("");

describe("decoding comes before classification", () => {
  it("folds a JSON array of events when it decodes it; the classifier reads the fold", () => {
    const decoded = toInputValue(JSON.stringify([task, done]));
    if (!decoded.ok || !isEventArray(decoded.value)) throw new Error("not decoded as events");
    expect(decoded.value.folded.ok && decoded.value.folded.value.framing).toBe("json-array");
    expect(toPlain(asJsonInput(decoded.value) as never)).toEqual([task, done]);
    const c = classifyInput(decoded.value);
    expect(c.ok && [c.value.shape, c.value.notes[0]]).toEqual([
      "stream",
      "input is a JSON array of stream events (REST framing): 2 events, folded into the Task",
    ]);
    // The shape classifier folds nothing itself: an array is no shape of its own.
    expect(classify(decoded.value.value)).toMatchObject({ ok: false, code: "INPUT_UNKNOWN_SHAPE", path: "$" });
  });

  it("reports a JSON array whose events do not fold when the input is classified, an SSE body when it is decoded", () => {
    const array = toInputValue("[null]");
    expect(array.ok).toBe(true);
    if (!array.ok) return;
    expect(classifyInput(array.value)).toMatchObject({ ok: false, code: "INPUT_STREAM_MALFORMED", path: "event[1]" });
    // --interim names its position in front of what classification refuses and of what decoding
    // refuses alike; the command line finds the file by the position the failure carries (index).
    const interim = loadCallerObservation(undefined, undefined, ["[null]"]);
    expect(interim).toMatchObject({ ok: false, code: "INPUT_STREAM_MALFORMED", source: "--interim", index: 0 });
    expect(!interim.ok && interim.detail).toBe("--interim[0]: event 1 is not a JSON object");
    const cut = loadCallerObservation(undefined, undefined, [sse(task)]);
    expect(cut).toMatchObject({ ok: false, code: "INPUT_STREAM_TRUNCATED", source: "--interim", index: 0 });
    expect(!cut.ok && cut.detail.startsWith("--interim[0]: the stream ends at event 1")).toBe(true);
  });

  it("takes --first-task's first response alike from an SSE stream and from a JSON array of the same events", () => {
    const fromSse = loadCallerObservation(undefined, sse(task, done));
    const fromArray = loadCallerObservation(undefined, JSON.stringify([task, done]));
    if (!fromSse.ok || !fromArray.ok) throw new Error("not loaded");
    expect(fromArray.value.firstTask?.id).toBe("t1");
    expect(fromArray.value.firstTask?.state).toBe("TASK_STATE_WORKING");
    expect(fromArray.value.firstTask).toEqual(fromSse.value.firstTask);
  });
});

describe("the registry of input forms", () => {
  it("never takes JSON text for another form", () => {
    const texts = ['{"a":1}', "\n" + JSON.stringify(task), "\uFEFF[1]", JSON.stringify(task, null, 2), "null", '"x"'];
    for (const text of texts) {
      for (const data of [text, new Uint8Array(Buffer.from(text))]) {
        expect(
          INPUT_FORMS.filter((f) => f.detect(data)).map((f) => f.name),
          JSON.stringify(text),
        ).toEqual([]);
      }
    }
    expect(JSON_DOCUMENT.detect("anything")).toBe(true);
  });

  it("decodes each form by its row, SSE to a folded stream", () => {
    const v = toInputValue(sse(task, done));
    expect(v.ok && isFoldedStream(v.value) && v.value.framing).toBe("sse");
  });

  it("classifies what a new form's decoder returns, a document or a stream, with nothing else to change", () => {
    const doc = classifyInput(decodedDocument("task", fromPlain(task.task), ["input is a binary Task"]));
    expect(doc.ok && [doc.value.shape, doc.value.finalTask?.path, doc.value.notes]).toEqual([
      "task",
      "$",
      ["input is a binary Task"],
    ]);
    const framing = { name: "cbor", described: "a CBOR sequence of StreamResponse messages", binding: "CBOR" };
    const folded = foldStreamArray(fromPlain([task, done]) as JsonValue[], undefined, framing);
    if (!folded.ok) throw new Error("not folded");
    expect(folded.value.framing).toBe("cbor");
    const stream = classifyInput(folded.value);
    expect(stream.ok && [stream.value.shape, stream.value.notes[0]]).toEqual([
      "stream",
      "input is a CBOR sequence of StreamResponse messages (CBOR framing): 2 events, folded into the Task",
    ]);
  });

  it("is the only importer of the decoders in src/: a new form is one decoder file plus one row", () => {
    const src = join(__dirname, "../../src");
    const files = (readdirSync(src, { recursive: true }) as string[]).filter((f) => f.endsWith(".ts"));
    const decoders = /from "[./]*(?:input\/)?(?:protobuf\/input|stream\/framing)\.js"/;
    const importers = files
      .filter((f) => decoders.test(readFileSync(join(src, f), "utf8")))
      .map((f) => relative(src, join(src, f)).split("\\").join("/"));
    expect(importers).toEqual(["input/forms.ts"]);
  });
});
