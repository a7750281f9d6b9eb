/**
 * §3 strict parsing and §9.14, attacked where the order and duplication of things live: a member
 * written twice inside the signed bundle bytes, a field under both its ProtoJSON names, a status
 * message that differs from its history copy in its role only.
 */
import { isFailedInput, type Report } from "../../../src/index.js";
import type { JsonObject, JsonValue } from "../../../src/json/value.js";
import { bytesToBase64, utf8 } from "../../../src/util/bytes.js";
import { pyjsonBytes } from "../../../producer/json-text.js";
import { arrayAt, attacked, copy, honest, objectAt, requestOf, type AdversarialCase } from "../harness.js";

/** The input was refused with this error code (exit 2), not verified. */
const refusedWith =
  (code: string) =>
  (report: Report): void => {
    const first = report.inputs[0];
    if (!first || !isFailedInput(first) || first.error.code !== code)
      throw new Error(`expected ${code}: ${JSON.stringify(first)}`);
  };

export const STRICT_INPUT_CASES: readonly AdversarialCase[] = [
  {
    name: "member written twice in the bundle bytes",
    rule: "§3",
    attack:
      "the raw part's JSON repeats taskId inside the payload; a last-wins parser would read the forged second one",
    request: () => {
      const e = honest();
      const text = new TextDecoder().decode(pyjsonBytes(e.bundle));
      const forged = text.replace(/"taskId":"([^"]*)"/, '"taskId":"$1","taskId":"forged-task"');
      const task = copy(e.finalTask);
      const artifacts = arrayAt(task, "artifacts");
      objectAt(artifacts[artifacts.length - 1] as JsonValue, "parts", 0).raw = bytesToBase64(utf8(forged));
      return requestOf(e, {
        inputs: [{ source: "attack", data: { ...copy(e.input), finalTask: task } as JsonObject }],
      });
    },
    expected: { exitCode: 2, more: refusedWith("INPUT_BUNDLE_NOT_JSON") },
  },
  {
    name: "messageId under both ProtoJSON names",
    rule: "§3",
    attack: "a history message carries messageId and message_id with different values",
    request: () =>
      requestOf(attacked({ finalTask: (t) => void (objectAt(t, "history", 1).message_id = "another-message") })),
    expected: { exitCode: 2, more: refusedWith("INPUT_A2A_MALFORMED") },
  },
  {
    name: "status message disagreeing with its history copy in role",
    rule: "§9.14",
    attack: "status.message repeats the agent's last message, same id and text, but as ROLE_USER",
    request: () =>
      requestOf(
        attacked({
          finalTask: (t) => {
            const m = copy(objectAt(t, "history", 1));
            m.role = "ROLE_USER";
            objectAt(t, "status").message = m;
          },
        }),
      ),
    expected: { exitCode: 1, property: "taskBinding", state: "FAIL", check: "transcript.statusMessage" },
  },
];
