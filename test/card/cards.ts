/**
 * Generated A2A v1.0 Agent Cards for differential tests, written from a2a.proto (a2a-wire.md §7.4)
 * independently of src/card/model.ts: every field absent, present, or present at its default
 * ("", [], {}, false, null), under its JSON or its proto (snake_case) name; security schemes and
 * OAuth flows (oneofs) with at most one member; Struct params with numbers written in lexemes JS
 * does not print (`60.0`, `1E2`, `-0`); non-ASCII strings (astral, combining, U+2028, controls,
 * HTML-significant `<>&`); unknown members at several levels.
 *
 * A card is a tree of plain values and `Lexeme` numbers; `cardText` writes it as JSON with each
 * number's lexeme as generated.
 */
import fc from "fast-check";

/** A JSON number written exactly as `text`. */
export class Lexeme {
  constructor(readonly text: string) {}
}

export type CardValue = string | boolean | null | Lexeme | CardValue[] | { [k: string]: CardValue };

type Kind = "s" | "b" | "ss" | "smap" | "struct" | { m: string } | { ms: string } | { map: string };

type Fields = readonly (readonly [string, Kind])[];

const SCHEMES = [
  "apiKeySecurityScheme",
  "httpAuthSecurityScheme",
  "oauth2SecurityScheme",
  "openIdConnectSecurityScheme",
  "mtlsSecurityScheme",
] as const;
const FLOWS = ["authorizationCode", "clientCredentials", "implicit", "password", "deviceCode"] as const;

const MESSAGES: Readonly<Record<string, Fields>> = {
  AgentInterface: [
    ["url", "s"],
    ["protocolBinding", "s"],
    ["tenant", "s"],
    ["protocolVersion", "s"],
  ],
  AgentProvider: [
    ["url", "s"],
    ["organization", "s"],
  ],
  AgentCapabilities: [
    ["streaming", "b"],
    ["pushNotifications", "b"],
    ["extensions", { ms: "AgentExtension" }],
    ["extendedAgentCard", "b"],
  ],
  AgentExtension: [
    ["uri", "s"],
    ["description", "s"],
    ["required", "b"],
    ["params", "struct"],
  ],
  AgentSkill: [
    ["id", "s"],
    ["name", "s"],
    ["description", "s"],
    ["tags", "ss"],
    ["examples", "ss"],
    ["inputModes", "ss"],
    ["outputModes", "ss"],
    ["securityRequirements", { ms: "SecurityRequirement" }],
  ],
  SecurityRequirement: [["schemes", { map: "StringList" }]],
  StringList: [["list", "ss"]],
  apiKeySecurityScheme: [
    ["description", "s"],
    ["location", "s"],
    ["name", "s"],
  ],
  httpAuthSecurityScheme: [
    ["description", "s"],
    ["scheme", "s"],
    ["bearerFormat", "s"],
  ],
  oauth2SecurityScheme: [
    ["description", "s"],
    ["flows", { m: "OAuthFlows" }],
    ["oauth2MetadataUrl", "s"],
  ],
  openIdConnectSecurityScheme: [
    ["description", "s"],
    ["openIdConnectUrl", "s"],
  ],
  mtlsSecurityScheme: [["description", "s"]],
  authorizationCode: [
    ["authorizationUrl", "s"],
    ["tokenUrl", "s"],
    ["refreshUrl", "s"],
    ["scopes", "smap"],
    ["pkceRequired", "b"],
  ],
  clientCredentials: [
    ["tokenUrl", "s"],
    ["refreshUrl", "s"],
    ["scopes", "smap"],
  ],
  implicit: [
    ["authorizationUrl", "s"],
    ["refreshUrl", "s"],
    ["scopes", "smap"],
  ],
  password: [
    ["tokenUrl", "s"],
    ["refreshUrl", "s"],
    ["scopes", "smap"],
  ],
  deviceCode: [
    ["deviceAuthorizationUrl", "s"],
    ["tokenUrl", "s"],
    ["refreshUrl", "s"],
    ["scopes", "smap"],
  ],
};

const CARD: Fields = [
  ["name", "s"],
  ["description", "s"],
  ["supportedInterfaces", { ms: "AgentInterface" }],
  ["provider", { m: "AgentProvider" }],
  ["version", "s"],
  ["documentationUrl", "s"],
  ["capabilities", { m: "AgentCapabilities" }],
  ["securitySchemes", { map: "SecurityScheme" }],
  ["securityRequirements", { ms: "SecurityRequirement" }],
  ["defaultInputModes", "ss"],
  ["defaultOutputModes", "ss"],
  ["skills", { ms: "AgentSkill" }],
  ["iconUrl", "s"],
];

const snake = (camel: string) => camel.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** Strings where the SDKs have disagreed (escaping, key order) or that JSON writers handle apart. */
const TRICKY = [
  "",
  "é",
  "日本語",
  "🚀",
  "e\u0301",
  "\u2028",
  "\u007f",
  'a\u0000\n\t"\\b',
  "ﬀ",
  "Ω",
  "a<b>&c",
  "\ufeff",
  "\ud83d\ude00x",
];

export const text = fc.oneof(
  fc.constantFrom(...TRICKY),
  fc.string({ maxLength: 8 }),
  fc.string({ unit: "grapheme", maxLength: 6 }),
  fc.string({ unit: "binary", maxLength: 6 }),
);

/** Number lexemes: some JS prints differently (`60.0`, `1E2`, `-0`, `1e-7`), some beyond 2^53. */
export const lexeme = fc
  .oneof(
    fc.integer().map(String),
    fc.integer({ min: -1000, max: 1000 }).map((n) => `${n}.0`),
    fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => (Object.is(d, -0) ? "-0" : String(d))),
    fc.constantFrom(
      "-0",
      "0.0",
      "1E2",
      "1e-7",
      "60.0",
      "2.50",
      "9007199254740993",
      "123456789012345678901234567890",
      "5e-324",
      "1.7976931348623157e308",
    ),
  )
  .map((t) => new Lexeme(t));

/** Member names of maps and Structs; `__proto__` is left to its own test (the SDK drops it). */
const key = fc.oneof(fc.constantFrom("a", "B", "é", "🚀", "10", "1", "_", "aa"), text).filter((k) => k !== "__proto__");

const struct: fc.Arbitrary<{ [k: string]: CardValue }> = fc.letrec<{
  value: CardValue;
  object: { [k: string]: CardValue };
}>((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    text,
    lexeme,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 3 }),
    tie("object"),
  ),
  object: fc.dictionary(key, tie("value"), { maxKeys: 3 }),
})).object;

function empty(kind: Kind): CardValue[] {
  if (kind === "s") return ["", null];
  if (kind === "b") return [false, null];
  if (kind === "ss" || (typeof kind === "object" && "ms" in kind)) return [[], null];
  return [{}, null];
}

function valueOf(kind: Kind, depth: number): fc.Arbitrary<CardValue> {
  if (kind === "s") return text;
  if (kind === "b") return fc.boolean();
  if (kind === "ss") return fc.array(text, { maxLength: 3 });
  if (kind === "smap") return fc.dictionary(key, text, { maxKeys: 3 });
  if (kind === "struct") return struct;
  if ("m" in kind) return message(kind.m, depth + 1);
  if ("ms" in kind) return fc.array(message(kind.ms, depth + 1), { maxLength: 2 });
  return fc.dictionary(key, message(kind.map, depth + 1), { maxKeys: 2 });
}

/** Unknown members: names no message of the card has, in either spelling. */
const unknown = fc.dictionary(fc.constantFrom("x_future", "xExtra", "vendorData"), fc.oneof(text, lexeme, struct), {
  maxKeys: 1,
});

function fieldsOf(fields: Fields, depth: number): fc.Arbitrary<{ [k: string]: CardValue }> {
  const one = ([, kind]: readonly [string, Kind]) =>
    fc.option(
      fc.tuple(fc.boolean(), fc.oneof({ weight: 3, arbitrary: valueOf(kind, depth) }, fc.constantFrom(...empty(kind)))),
      {
        nil: undefined,
        freq: depth > 1 ? 2 : 4,
      },
    );
  return fc.tuple(fc.tuple(...fields.map(one)), unknown).map(([values, extra]) => {
    const out: { [k: string]: CardValue } = {};
    values.forEach((v, i) => {
      if (v === undefined) return;
      const [name] = fields[i] as readonly [string, Kind];
      out[v[0] ? snake(name) : name] = v[1];
    });
    return depth <= 1 ? { ...out, ...extra } : out;
  });
}

/** A oneof message: no member, or exactly one. */
function oneof(members: readonly string[], depth: number): fc.Arbitrary<{ [k: string]: CardValue }> {
  return fc.oneof(
    fc.constant({}),
    ...members.map((m) =>
      fc.tuple(fc.boolean(), fieldsOf(MESSAGES[m] as Fields, depth + 1)).map(([s, v]) => ({ [s ? snake(m) : m]: v })),
    ),
  );
}

function message(name: string, depth: number): fc.Arbitrary<{ [k: string]: CardValue }> {
  if (name === "SecurityScheme") return oneof(SCHEMES, depth);
  if (name === "OAuthFlows") return oneof(FLOWS, depth);
  return fieldsOf(MESSAGES[name] as Fields, depth);
}

/** A v1.0 Agent Card (never v0.3-shaped: no top-level `url`, `protocolVersion` or the like). */
export const card = fieldsOf(CARD, 0);

function write(v: CardValue): string {
  if (v instanceof Lexeme) return v.text;
  if (Array.isArray(v)) return `[${v.map(write).join(",")}]`;
  if (v !== null && typeof v === "object")
    return `{${Object.keys(v)
      .map((k) => `${JSON.stringify(k)}:${write(v[k] as CardValue)}`)
      .join(",")}}`;
  return JSON.stringify(v);
}

/** The card as JSON text, numbers as their lexemes. */
export function cardText(c: CardValue): string {
  return write(c);
}

/** A small, well-formed v1.0 card. */
export function ledgerCard(): Record<string, unknown> {
  return {
    name: "Ledger Agent",
    description: "Posts ledger entries",
    version: "1.0.0",
    supportedInterfaces: [{ url: "https://agent.example/a2a", protocolBinding: "JSONRPC", protocolVersion: "1.0" }],
    capabilities: { streaming: true },
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    skills: [{ id: "post", name: "post", description: "posts", tags: ["ledger"] }],
  };
}
