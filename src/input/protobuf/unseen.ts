/**
 * Unknown protobuf fields inside content the evidence commits to (Message, Part, Artifact, and the
 * Structs within them; contract §3.1). The decoder skips them, as protobuf's forward compatibility
 * asks, but the verifier cannot see what they carry: they make the binding INCONCLUSIVE rather
 * than the input an error. They travel with the decoded input under a symbol key (a JSON parse
 * cannot make one) up to the input stage, which hands them to taskBinding.
 */

/** One unknown field the decoder skipped inside committed content. */
export interface UnseenField {
  readonly field: number;
  /** VARINT, I64, LEN or I32. */
  readonly wireType: string;
  /** The message it was found in (`Part`, `Message`, `google.protobuf.Struct`, …). */
  readonly owner: string;
  /** The field path of that message, as input faults name it (`history[0].parts[1]`). */
  readonly path: string;
  /** The byte offset of its tag in the input. */
  readonly offset: number;
}

/** The unknown fields of one input: the first few listed, all counted. */
export interface UnseenFields {
  readonly fields: readonly UnseenField[];
  readonly count: number;
}

/** How many unknown fields are listed; the rest are counted (contract §9.20). */
export const UNSEEN_CAP = 20;

const UNSEEN: unique symbol = Symbol("a2a-evidence unseen protobuf fields");

/** `value` carrying its unseen fields, when there are any. */
export function withUnseen<T extends object>(value: T, unseen: UnseenFields): T {
  return unseen.count === 0 ? value : Object.assign(value, { [UNSEEN]: unseen });
}

/** The unseen fields a decoded input carries. */
export function unseenIn(value: unknown): UnseenFields | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  return (value as { [UNSEEN]?: UnseenFields })[UNSEEN];
}

/** Several inputs' unseen fields as one list (still capped), each path labelled with its source. */
export function mergeUnseen(
  parts: readonly (readonly [string | undefined, UnseenFields | undefined])[],
): UnseenFields | undefined {
  const fields: UnseenField[] = [];
  let count = 0;
  for (const [label, u] of parts) {
    if (!u) continue;
    count += u.count;
    for (const f of u.fields) {
      if (fields.length < UNSEEN_CAP) fields.push(label ? { ...f, path: `${label} ${f.path}` } : f);
    }
  }
  return count > 0 ? { fields, count } : undefined;
}

/** One line per unseen field listed (and one for the rest), for explanations. */
export function unseenLines(unseen: UnseenFields | undefined): string[] {
  if (!unseen) return [];
  const lines = unseen.fields.map(
    (f) =>
      `unknown protobuf field ${f.field} (wire type ${f.wireType}) in ${f.owner} at ${f.path} (byte ${f.offset}): content the evidence commits to that the verifier cannot see (taskBinding INCONCLUSIVE)`,
  );
  const more = unseen.count - unseen.fields.length;
  if (more > 0) lines.push(`and ${more} more unknown protobuf field(s) in committed content`);
  return lines;
}
