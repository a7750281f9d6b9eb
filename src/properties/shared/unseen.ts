/**
 * Unknown protobuf fields inside content the evidence commits to (contract §3.1): a Message, Part
 * or Artifact of a gRPC input carried a field the verifier does not know, so the client held
 * content the verifier cannot see, let alone bind. Each one listed makes the binding INCONCLUSIVE
 * (`protobuf.unknownField`), never PASS; the rest are counted (contract §9.20).
 */
import type { UnseenFields } from "../../input/protobuf/unseen.js";
import type { Check } from "./types.js";
import type { CheckExtras } from "./checks.js";

type Make = (id: "protobuf.unknownField", state: "INCONCLUSIVE", detail: string, extras?: CheckExtras) => Check;

export function unseenChecks(unseen: UnseenFields | undefined, make: Make): Check[] {
  if (!unseen) return [];
  const checks = unseen.fields.map((f) =>
    make(
      "protobuf.unknownField",
      "INCONCLUSIVE",
      `protobuf.unknownField: unknown field ${f.field} (wire type ${f.wireType}) in ${f.owner} at byte ${f.offset}: content the evidence commits to carries what this verifier cannot read, so it is not bound`,
      { subject: f.path, values: { field: String(f.field), wireType: f.wireType, offset: String(f.offset) } },
    ),
  );
  const more = unseen.count - unseen.fields.length;
  if (more > 0) {
    checks.push(
      make(
        "protobuf.unknownField",
        "INCONCLUSIVE",
        `protobuf.unknownField: and ${more} more unknown field(s) in committed content`,
      ),
    );
  }
  return checks;
}
