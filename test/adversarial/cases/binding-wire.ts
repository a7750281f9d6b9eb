/**
 * The content binding against the Task it came with, attacked where the observation is thin: a
 * Part whose oneof holds a second, null member, and a Task that shows no history or no artifacts
 * member, where a payload that commits nothing must not fare better than one that commits
 * everything.
 */
import { isFailedInput, type Report } from "../../../src/index.js";
import { attacked, objectAt, requestOf, type AdversarialCase } from "../harness.js";

/** The input was refused with this error code at this path (exit 2), not verified. */
const refusedAt =
  (code: string, path: string) =>
  (report: Report): void => {
    const first = report.inputs[0];
    if (!first || !isFailedInput(first) || first.error.code !== code || first.error.path !== path)
      throw new Error(`expected ${code} at ${path}: ${JSON.stringify(first)}`);
  };

export const BINDING_WIRE_CASES: readonly AdversarialCase[] = [
  // a2a-wire.md §1.1: Part.data is a google.protobuf.Value, where null is a value, not "unset".
  {
    name: "text part beside a null data value",
    rule: "§3",
    attack:
      'the agent\'s reply part carries "data": null beside its text: two oneof members, which a ProtoJSON parser refuses and a2a-js reads as text',
    request: () => requestOf(attacked({ finalTask: (t) => void (objectAt(t, "history", 1, "parts", 0).data = null) })),
    expected: { exitCode: 2, more: refusedAt("INPUT_A2A_MALFORMED", "finalTask.history[1].parts[0]") },
  },
  // §9.4: a Task always holds the Message that created it; no history shown is no history observed.
  {
    name: "transcript emptied against a Task that shows no history",
    rule: "§9.4",
    attack:
      "the producer commits no transcript entry and the GetTask response carries no history: nothing is compared, which must not read as bound",
    request: () =>
      requestOf(
        attacked(
          { payload: (p) => void (p.transcript = []), finalTask: (t) => void delete t.history },
          {
            envelope: "jsonrpc",
          },
        ),
      ),
    expected: { exitCode: 3, property: "taskBinding", state: "INCONCLUSIVE", check: "transcript.unobserved" },
  },
];
