/**
 * Pairs of JSON copies of one A2A Message, for comparing two judges of "the same Message": a
 * Message is drawn as a model, a second model is the first or the first with one real change,
 * and each model is written out as JSON text by independent choices of spelling — JSON or proto
 * field names, member order, a role by name or number, an absent field left out or written at its
 * default (`null`, `""`, `[]`, `{}`), numbers respelled (`60`, `60.0`, `6e1`, `600E-1`), bytes in
 * standard or URL-safe base64, padded or not.
 */
import fc from "fast-check";

/** A number as its exact value, digits × 10^exp (the lexeme is chosen when written). */
interface Num {
  readonly $num: bigint;
  readonly $exp: number;
}
type Val = null | boolean | string | Num | Val[] | { [k: string]: Val };
type Struct = { [k: string]: Val };

interface ModelPart {
  kind: "text" | "raw" | "url" | "data";
  text?: string;
  bytes?: number[];
  data?: Val;
  mediaType?: string;
  filename?: string;
  metadata?: Struct;
}

export interface ModelMessage {
  messageId: string;
  role: 0 | 1 | 2;
  taskId?: string;
  contextId?: string;
  parts: ModelPart[];
  metadata?: Struct;
  extensions?: string[];
  /** A member the Message does not define, with a value that is no default. */
  extra?: Val;
}

const isNum = (v: Val): v is Num => typeof v === "object" && v !== null && "$num" in v;

// ---- the models ----

const num = fc
  .constantFrom<[bigint, number]>([60n, 0], [605n, -1], [61n, 0], [0n, 0], [1n, 16], [1n, -7], [95n, -2], [-3n, 0])
  .map(([m, e]): Num => ({ $num: m, $exp: e }));
const word = fc.constantFrom("", "a", "hello", "é", "60", "null");
const key = fc.constantFrom("k", "x", "y", "minimumEvidence");

const { val } = fc.letrec<{ val: Val }>((tie) => ({
  val: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    word,
    num,
    fc.array(tie("val"), { maxLength: 2 }),
    fc.dictionary(key, tie("val"), { maxKeys: 2 }),
  ),
}));
const struct = fc.dictionary(key, val, { minKeys: 1, maxKeys: 3 });
const id = fc.constantFrom("t1", "t2", "c1");

const part: fc.Arbitrary<ModelPart> = fc.record(
  {
    kind: fc.constantFrom("text", "raw", "url", "data"),
    text: word,
    bytes: fc.array(fc.nat(255), { maxLength: 5 }),
    data: val.filter((v) => v !== null),
    mediaType: fc.constantFrom("text/plain", "application/json"),
    filename: fc.constantFrom("a.txt", "b.json"),
    metadata: struct,
  },
  { requiredKeys: ["kind", "text", "bytes", "data"] },
);

export const message: fc.Arbitrary<ModelMessage> = fc.record(
  {
    messageId: fc.constantFrom("m1", "m2"),
    role: fc.constantFrom<0 | 1 | 2>(0, 1, 2),
    taskId: id,
    contextId: id,
    parts: fc.array(part, { minLength: 1, maxLength: 3 }),
    metadata: struct,
    extensions: fc.array(fc.constantFrom("urn:a", "urn:b"), { minLength: 1, maxLength: 2 }),
    extra: fc.constantFrom<Val>("x", true, { $num: 1n, $exp: 0 }),
  },
  { requiredKeys: ["messageId", "role", "parts"] },
);

// ---- real changes ----

/** Another Struct or Value value of a different kind or number than `v` (`null` only where a Struct allows it). */
function otherVal(v: Val | undefined, nullable = true): Val {
  const kinds: Val[] = [
    {},
    [],
    "",
    false,
    { $num: 0n, $exp: 0 },
    { $num: 605n, $exp: -1 },
    ...(nullable ? [null] : []),
  ];
  return kinds.find((k) => JSON.stringify(k, big) !== JSON.stringify(v, big)) as Val;
}
const big = (_: string, v: unknown): unknown => (typeof v === "bigint" ? `${v}n` : v);

/** One change to a Message; each is a real difference unless the model already had the changed value. */
export const CHANGES: readonly [string, (m: ModelMessage, i: number) => void][] = [
  ["text", (m, i) => Object.assign(at(m, i), { kind: "text", text: `${at(m, i).text ?? ""}!` })],
  ["kind", (m, i) => Object.assign(at(m, i), { kind: at(m, i).kind === "text" ? "url" : "text" })],
  ["add part", (m) => m.parts.push({ kind: "text", text: "extra" })],
  ["remove part", (m, i) => m.parts.length > 1 && m.parts.splice(i % m.parts.length, 1)],
  ["metadata value", (m) => (m.metadata = { ...m.metadata, k: otherVal(m.metadata?.k) })],
  ["metadata null", (m) => (m.metadata = { ...m.metadata, y: m.metadata?.y === null ? "y" : null })],
  ["data", (m, i) => Object.assign(at(m, i), { kind: "data", data: otherVal(at(m, i).data, false) })],
  ["taskId", (m) => (m.taskId = m.taskId === "t1" ? "t2" : "t1")],
  ["contextId", (m) => (m.contextId = m.contextId === "c1" ? "t1" : "c1")],
  ["role", (m, i) => (m.role = ((m.role + 1 + (i % 2)) % 3) as 0 | 1 | 2)],
  ["messageId", (m) => (m.messageId = `${m.messageId}x`)],
  ["extensions", (m) => (m.extensions = m.extensions ? undefined : ["urn:c"])],
  ["member", (m) => (m.extra = m.extra === "z" ? "w" : "z")],
  ["bytes", (m, i) => Object.assign(at(m, i), { kind: "raw", bytes: [...(at(m, i).bytes ?? []), i % 256] })],
  ["mediaType", (m, i) => Object.assign(at(m, i), { mediaType: at(m, i).mediaType ? undefined : "image/png" })],
  ["filename", (m, i) => Object.assign(at(m, i), { filename: `${at(m, i).filename ?? ""}f` })],
  [
    "part metadata",
    (m, i) => Object.assign(at(m, i), { metadata: { ...at(m, i).metadata, x: otherVal(at(m, i).metadata?.x) } }),
  ],
];

function at(m: ModelMessage, i: number): ModelPart {
  return m.parts[i % m.parts.length] as ModelPart;
}

// ---- writing a model out ----

/** The spelling choices, drawn once per copy and used in turn. */
export class Choices {
  private i = 0;
  constructor(private readonly draws: readonly number[]) {}
  pick<T>(options: readonly T[]): T {
    const n = this.draws[this.i++ % this.draws.length] as number;
    return options[n % options.length] as T;
  }
}

/** A member left out, or written at a value ProtoJSON reads as absent. */
const OMIT = Symbol("omit");
type Member = readonly [string, string | typeof OMIT];

function object(members: readonly Member[], ch: Choices): string {
  const written = members.filter((m): m is readonly [string, string] => m[1] !== OMIT);
  const order = written.map((m) => [ch.pick([0, 1, 2, 3, 4, 5, 6, 7]), m] as const).sort((a, b) => a[0] - b[0]);
  return `{${order.map(([, [k, v]]) => `${JSON.stringify(k)}:${v}`).join(",")}}`;
}

/** A number's lexeme: positional or with an exponent, with some trailing zeros or none. */
export function lexeme(n: Num, ch: Choices): string {
  const zeros = ch.pick([0, 0, 1, 2]);
  const digits = (n.$num < 0n ? -n.$num : n.$num) * 10n ** BigInt(zeros);
  const exp = n.$exp - zeros;
  const sign = n.$num < 0n || (n.$num === 0n && ch.pick([false, false, true])) ? "-" : "";
  const style = ch.pick(["positional", "positional", "e", "E+"]);
  if (style !== "positional") return `${sign}${digits}${style === "e" ? "e" : "E+"}${exp}`.replace("E+-", "E-");
  if (exp >= 0) return `${sign}${digits}${"0".repeat(exp)}`;
  const padded = digits.toString().padStart(-exp + 1, "0");
  return `${sign}${padded.slice(0, exp)}.${padded.slice(exp)}`;
}

function value(v: Val, ch: Choices): string {
  if (isNum(v)) return lexeme(v, ch);
  if (Array.isArray(v)) return `[${v.map((x) => value(x, ch)).join(",")}]`;
  if (typeof v === "object" && v !== null)
    return object(
      Object.entries(v).map(([k, x]) => [k, value(x, ch)]),
      ch,
    );
  return JSON.stringify(v);
}

/** A field that may be absent: its value, or left out / null / its default. */
function optional(v: string | undefined, defaults: readonly string[], ch: Choices): string | typeof OMIT {
  return v !== undefined ? v : ch.pick([OMIT, OMIT, "null", ...defaults]);
}

const name = (camel: string, snake: string, ch: Choices) => ch.pick([camel, camel, snake]);

function base64(bytes: readonly number[], ch: Choices): string {
  const s = Buffer.from(bytes).toString("base64");
  const urlSafe = ch.pick([false, true]) ? s.replace(/\+/g, "-").replace(/\//g, "_") : s;
  return ch.pick([true, false]) ? urlSafe : urlSafe.replace(/=+$/, "");
}

const str = (s: string | undefined) => (s === undefined ? undefined : JSON.stringify(s));

function partText(p: ModelPart, ch: Choices): string {
  const content =
    p.kind === "raw"
      ? JSON.stringify(base64(p.bytes ?? [], ch))
      : p.kind === "data"
        ? value(p.data ?? null, ch)
        : JSON.stringify(p.text ?? "");
  return object(
    [
      [p.kind, content],
      [name("mediaType", "media_type", ch), optional(str(p.mediaType), ['""'], ch)],
      ["filename", optional(str(p.filename), ['""'], ch)],
      ["metadata", optional(p.metadata && value(p.metadata, ch), ["{}"], ch)],
    ],
    ch,
  );
}

/** One copy of a Message as JSON text, spelled by `ch`. */
export function messageText(m: ModelMessage, ch: Choices): string {
  const role =
    m.role === 0
      ? ch.pick<string | typeof OMIT>([OMIT, '"ROLE_UNSPECIFIED"', "0", "null"])
      : ch.pick([JSON.stringify(["", "ROLE_USER", "ROLE_AGENT"][m.role]), String(m.role)]);
  return object(
    [
      [name("messageId", "message_id", ch), JSON.stringify(m.messageId)],
      ["role", role],
      [name("taskId", "task_id", ch), optional(str(m.taskId), ['""'], ch)],
      [name("contextId", "context_id", ch), optional(str(m.contextId), ['""'], ch)],
      ["parts", `[${m.parts.map((p) => partText(p, ch)).join(",")}]`],
      ["metadata", optional(m.metadata && value(m.metadata, ch), ["{}"], ch)],
      ["extensions", optional(m.extensions && value(m.extensions, ch), ["[]"], ch)],
      [name("referenceTaskIds", "reference_task_ids", ch), optional(undefined, ["[]"], ch)],
      ["extra", optional(m.extra === undefined ? undefined : value(m.extra, ch), ['""', "false", "[]", "{}", "0"], ch)],
    ],
    ch,
  );
}

/** Two copies: the same Message, or one real change apart, each spelled its own way. */
export const pair = fc
  .record({
    model: message,
    change: fc.option(fc.nat(CHANGES.length - 1), { freq: 3 }),
    at: fc.nat(7),
    left: fc.array(fc.nat(1000), { minLength: 1, maxLength: 64 }),
    right: fc.array(fc.nat(1000), { minLength: 1, maxLength: 64 }),
  })
  .map(({ model, change, at: i, left, right }) => {
    const changed: ModelMessage = structuredClone(model);
    const c = change === null ? undefined : CHANGES[change];
    c?.[1](changed, i);
    return {
      change: c?.[0] ?? "none",
      a: messageText(model, new Choices(left)),
      b: messageText(changed, new Choices(right)),
    };
  });
