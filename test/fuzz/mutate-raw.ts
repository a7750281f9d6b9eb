/**
 * Raw mutations: one structure-aware change to the input, nothing re-signed. A plan is a few
 * integers (which seed, which site, which operation, which variant), so fast-check shrinks a
 * counterexample towards the first site and the simplest operation; `apply` turns a plan into
 * the change and a description of it — where, what kind, the value before and after.
 */
import fc from "fast-check";
import {
  JsonNumber,
  fromPlain,
  isJsonObject,
  jsonEquals,
  newJsonObject,
  type JsonObject,
  type JsonValue,
} from "../../src/json/value.js";
import { uuidFromLabel } from "../../producer/a2a.js";
import { EVIDENCE_ARTIFACT_ID, EVIDENCE_MEDIA_TYPE, EXTENSION_URI } from "../../producer/constants.js";
import { valueAt, type Doc, type Path } from "./corpus.js";
import { rootValue, sites, type Root, type Site } from "./sites.js";

export type Op = "replace" | "remove" | "insert" | "duplicate" | "swap" | "reorder";

export interface Mutation {
  readonly op: Op;
  /** replace/remove/duplicate/swap/reorder: the site changed; insert: the new element or member. */
  readonly site: Site;
  readonly before: JsonValue | undefined;
  readonly after: JsonValue | undefined;
  /** One line: where and what. */
  readonly description: string;
}

export interface RawPlan {
  readonly seed: number;
  readonly site: number;
  readonly op: number;
  readonly variant: number;
  readonly pick: number;
}

export const rawPlan = (seeds: number): fc.Arbitrary<RawPlan> =>
  fc.record({ seed: fc.nat(seeds - 1), site: fc.nat(), op: fc.nat(11), variant: fc.nat(15), pick: fc.nat() });

const copy = <T extends JsonValue>(v: T): T => fromPlain(v) as T;
const obj = (plain: Record<string, unknown>): JsonObject => fromPlain(plain) as JsonObject;

/** Strings an attacker reaches for: empty, control and separator characters, normalization forms, a lone surrogate. */
const STRING_EDGES = [
  "",
  " ",
  "\u0000",
  "\u2028",
  "e\u0301",
  "\u00e9",
  "\ud83d\ude00",
  "\ud800",
  "\ufeffx",
  "A".repeat(300),
];
const OTHER_TYPES: JsonValue[] = [null, true, "x", new JsonNumber("1.5"), [], newJsonObject()];

function otherString(s: string, variant: number, pick: number, strings: () => readonly string[]): string {
  switch (variant % 6) {
    case 0:
      return STRING_EDGES[pick % STRING_EDGES.length] as string;
    case 1: {
      if (s.length === 0) return "x";
      const i = pick % s.length;
      const c = s.charCodeAt(i);
      return s.slice(0, i) + String.fromCharCode(c === 0x30 ? 0x31 : c ^ 1) + s.slice(i + 1);
    }
    case 2:
      return s + STRING_EDGES[(pick % (STRING_EDGES.length - 1)) + 1];
    case 3:
      return uuidFromLabel(`fuzz ${pick}`);
    case 4: {
      // Another string of the same document: ids, digests and names swapped between places.
      const others = strings().filter((v) => v !== s);
      return others.length ? (others[pick % others.length] as string) : "y";
    }
    default:
      return s.toUpperCase() === s ? s.toLowerCase() : s.toUpperCase();
  }
}

function otherNumber(n: JsonNumber, variant: number): JsonValue {
  const lexeme = n.lexeme;
  switch (variant % 6) {
    case 0:
      return new JsonNumber(n.isIntegerLexeme ? `${lexeme}.0` : lexeme.replace(/\.0$/, ""));
    case 1:
      return new JsonNumber(String(n.toNumber() + 1));
    case 2:
      return new JsonNumber("-1");
    case 3:
      return new JsonNumber("9007199254740993");
    case 4:
      return new JsonNumber(`${lexeme}e0`);
    default:
      return lexeme;
  }
}

function replacement(old: JsonValue, variant: number, pick: number, strings: () => readonly string[]): JsonValue {
  if (variant >= 12) return OTHER_TYPES[pick % OTHER_TYPES.length] as JsonValue;
  if (typeof old === "string") return otherString(old, variant, pick, strings);
  if (old instanceof JsonNumber) return otherNumber(old, variant);
  if (typeof old === "boolean") return !old;
  if (old === null) return variant % 2 ? "" : new JsonNumber("0");
  if (Array.isArray(old)) return variant % 2 ? [] : [...old, ...old];
  return newJsonObject();
}

function parentOf(root: JsonValue, site: Site): { parent: JsonObject | JsonValue[]; key: string | number } | undefined {
  if (site.path.length === 0) return undefined;
  const parent = valueAt(root, site.path.slice(0, -1));
  if (!Array.isArray(parent) && !isJsonObject(parent)) return undefined;
  return { parent, key: site.path[site.path.length - 1] as string | number };
}

function describe(site: Site, what: string): string {
  return `${site.root === "bundle" ? "bundle" : "input"}${site.path.map((s) => (typeof s === "number" ? `[${s}]` : /^[A-Za-z_][A-Za-z0-9_]*$/.test(s) ? `.${s}` : `[${JSON.stringify(s)}]`)).join("")}: ${what}`;
}

const show = (v: JsonValue | undefined): string => {
  const t =
    v === undefined
      ? "(absent)"
      : v instanceof JsonNumber
        ? v.lexeme
        : JSON.stringify(v, (_k, x: unknown) => (x instanceof JsonNumber ? x.lexeme : x));
  return t.length > 80 ? `${t.slice(0, 77)}...` : t;
};

/** Every string of a value (ids, digests, names), for swapping one place's string into another. */
export function stringsOf(v: JsonValue, out: string[] = []): string[] {
  if (typeof v === "string") {
    if (v.length < 200) out.push(v);
  } else if (Array.isArray(v)) v.forEach((x) => stringsOf(x, out));
  else if (isJsonObject(v)) for (const k of Object.keys(v)) stringsOf(v[k] as JsonValue, out);
  return out;
}

/** Applies a generic operation at a site of `root`: replace, remove, duplicate, swap, reorder or insert. */
export function generic(
  root: JsonValue,
  site: Site,
  op: number,
  variant: number,
  pick: number,
  strings: () => readonly string[],
): Mutation | undefined {
  const at = parentOf(root, site);
  if (!at) return undefined;
  const { parent, key } = at;
  const before = (parent as Record<string | number, JsonValue>)[key];
  const slot = parent as Record<string | number, JsonValue>;
  if (op <= 3 || before === undefined) {
    const after = replacement(before as JsonValue, variant + (op === 3 ? 12 : 0), pick, strings);
    slot[key] = after;
    return { op: "replace", site, before, after, description: describe(site, `${show(before)} → ${show(after)}`) };
  }
  if (op === 4) {
    if (Array.isArray(parent)) parent.splice(key as number, 1);
    else delete slot[key];
    return { op: "remove", site, before, after: undefined, description: describe(site, "removed") };
  }
  if (op === 5 && Array.isArray(parent)) {
    const to = pick % (parent.length + 1);
    parent.splice(to, 0, copy(before));
    return { op: "duplicate", site, before, after: before, description: describe(site, `duplicated to index ${to}`) };
  }
  if (op === 6 && Array.isArray(parent) && parent.length > 1) {
    const j = ((key as number) + 1 + (pick % (parent.length - 1))) % parent.length;
    const other = parent[j] as JsonValue;
    parent[j] = before;
    parent[key as number] = other;
    return { op: "swap", site, before, after: other, description: describe(site, `swapped with [${j}]`) };
  }
  if (op === 7 && isJsonObject(before) && Object.keys(before).length > 1) {
    const keys = Object.keys(before);
    const reordered = newJsonObject();
    for (const k of [...keys.slice(pick % keys.length), ...keys.slice(0, pick % keys.length)].reverse())
      reordered[k] = before[k] as JsonValue;
    slot[key] = reordered;
    return { op: "reorder", site, before, after: reordered, description: describe(site, "members reordered") };
  }
  if (isJsonObject(before) || Array.isArray(before)) {
    const value = replacement(new JsonNumber("1"), variant, pick, strings);
    if (Array.isArray(before)) {
      const i = pick % (before.length + 1);
      before.splice(i, 0, before.length ? copy(before[pick % before.length] as JsonValue) : value);
      return {
        op: "insert",
        site: { root: site.root, path: [...site.path, i] },
        before: undefined,
        after: before[i],
        description: describe(site, `element inserted at ${i}`),
      };
    }
    const name = ["extra", "kind", "metadata", "description", EXTENSION_URI, "is_stub"][pick % 6] as string;
    const existing = before[name];
    before[name] = existing === undefined ? value : replacement(existing, variant, pick, strings);
    return {
      op: existing === undefined ? "insert" : "replace",
      site: { root: site.root, path: [...site.path, name] },
      before: existing,
      after: before[name],
      description: describe(site, `member ${JSON.stringify(name)} set to ${show(before[name])}`),
    };
  }
  const after = replacement(before, variant, pick, strings);
  slot[key] = after;
  return { op: "replace", site, before, after, description: describe(site, `${show(before)} → ${show(after)}`) };
}

// ---- A2A-shaped changes to the observed Task ----

function taskOf(doc: Doc): JsonObject {
  return valueAt(doc.input, doc.taskPath) as JsonObject;
}

function arrayMember(o: JsonObject, name: string): JsonValue[] {
  if (!Array.isArray(o[name])) o[name] = [];
  return o[name] as JsonValue[];
}

const textPart = (text: string): JsonObject => obj({ text });

function insertInto(array: JsonValue[], arrayPath: Path, index: number, value: JsonValue, what: string): Mutation {
  const i = Math.min(index, array.length);
  array.splice(i, 0, value);
  const site: Site = { root: "input", path: [...arrayPath, i] };
  return {
    op: "insert",
    site,
    before: undefined,
    after: value,
    description: describe(site, `${what}: ${show(value)}`),
  };
}

function a2a(doc: Doc, variant: number, pick: number): Mutation | undefined {
  const task = taskOf(doc);
  const taskPath = doc.taskPath;
  const artifacts = arrayMember(task, "artifacts");
  const history = Array.isArray(task.history) ? (task.history as JsonValue[]) : [];
  const contentIndexes = artifacts.map((_, i) => i).filter((i) => i !== doc.evidenceIndex);
  switch (variant % 12) {
    case 0:
      return insertInto(
        artifacts,
        [...taskPath, "artifacts"],
        pick,
        obj({ artifactId: uuidFromLabel(`added ${pick}`), name: "added", parts: [{ text: "unrequested content" }] }),
        "content Artifact added",
      );
    case 1: {
      const disguise = [
        { artifactId: EVIDENCE_ARTIFACT_ID, parts: [{ text: "looks like evidence" }] },
        {
          artifactId: uuidFromLabel(`disguised ${pick}`),
          extensions: [EXTENSION_URI],
          parts: [{ text: "looks like evidence" }],
        },
        {
          artifactId: uuidFromLabel(`disguised ${pick}`),
          parts: [{ text: "looks like evidence", mediaType: EVIDENCE_MEDIA_TYPE }],
        },
        { artifactId: uuidFromLabel(`data ${pick}`), parts: [{ data: { amount: 1000 } }] },
      ][pick % 4] as Record<string, unknown>;
      return insertInto(artifacts, [...taskPath, "artifacts"], pick, obj(disguise), "disguised Artifact added");
    }
    case 2: {
      if (artifacts.length === 0) return undefined;
      const source = artifacts[pick % artifacts.length] as JsonValue;
      return insertInto(
        artifacts,
        [...taskPath, "artifacts"],
        (pick >> 3) % (artifacts.length + 1),
        copy(source),
        "Artifact repeated",
      );
    }
    case 3: {
      const i = contentIndexes[pick % Math.max(contentIndexes.length, 1)];
      if (i === undefined) return undefined;
      const parts = arrayMember(artifacts[i] as JsonObject, "parts");
      const part = [textPart("appended text"), obj({ data: { note: "appended" } }), textPart("")][
        pick % 3
      ] as JsonObject;
      return insertInto(
        parts,
        [...taskPath, "artifacts", i, "parts"],
        (pick >> 2) % (parts.length + 1),
        part,
        "part added to a content Artifact",
      );
    }
    case 4: {
      if (doc.evidenceIndex === undefined || doc.evidenceIndex < 0) return undefined;
      const parts = arrayMember(artifacts[doc.evidenceIndex] as JsonObject, "parts");
      return insertInto(
        parts,
        [...taskPath, "artifacts", doc.evidenceIndex, "parts"],
        1 + (pick % parts.length),
        textPart("beside the bundle"),
        "part added beside the bundle",
      );
    }
    case 5: {
      if (history.length === 0) return undefined;
      const source = history[pick % history.length] as JsonObject;
      const variantCopy = copy(source);
      if ((pick >> 4) % 2) variantCopy.parts = [textPart("forged under a reused messageId")];
      return insertInto(
        history,
        [...taskPath, "history"],
        (pick >> 5) % (history.length + 1),
        variantCopy,
        "history message repeated",
      );
    }
    case 6:
      return insertInto(
        arrayMember(task, "history"),
        [...taskPath, "history"],
        pick,
        obj({
          messageId: uuidFromLabel(`added message ${pick}`),
          role: pick % 2 ? "ROLE_AGENT" : "ROLE_USER",
          parts: [{ text: "unrecorded turn" }],
        }),
        "history message added",
      );
    case 7: {
      const status = isJsonObject(task.status) ? task.status : undefined;
      if (!status) return undefined;
      const before = status.message;
      const choice = pick % 3;
      const source = history.length ? (history[(pick >> 2) % history.length] as JsonObject) : undefined;
      const message =
        choice === 0 && source
          ? copy(source)
          : choice === 1 && source
            ? obj({ ...copy(source), parts: [{ text: "the status says otherwise" }] })
            : obj({
                messageId: uuidFromLabel(`status ${pick}`),
                role: "ROLE_AGENT",
                parts: [{ text: "final reply only here" }],
              });
      status.message = message;
      const site: Site = { root: "input", path: [...taskPath, "status", "message"] };
      return {
        op: before === undefined ? "insert" : "replace",
        site,
        before,
        after: message,
        description: describe(site, `status.message set to ${show(message)}`),
      };
    }
    case 8: {
      const first = history[0];
      if (!isJsonObject(first) || !isJsonObject(first.metadata)) return undefined;
      const targets: Array<[JsonObject, Path]> = [
        ...history.slice(1).map((m, i): [JsonObject, Path] => [m as JsonObject, [...taskPath, "history", i + 1]]),
        ...contentIndexes.map((i): [JsonObject, Path] => [artifacts[i] as JsonObject, [...taskPath, "artifacts", i]]),
      ];
      if (targets.length === 0) return undefined;
      const [target, path] = targets[pick % targets.length] as [JsonObject, Path];
      const before = target.metadata;
      target.metadata = copy(first.metadata);
      const site: Site = { root: "input", path: [...path, "metadata"] };
      return {
        op: before === undefined ? "insert" : "replace",
        site,
        before,
        after: target.metadata,
        description: describe(site, "the request's metadata copied here"),
      };
    }
    default: {
      // Ids: another id, the empty string, or absent.
      const places: Path[] = [
        [...taskPath, "id"],
        [...taskPath, "contextId"],
        ...history.map((_, i): Path => [...taskPath, "history", i, "messageId"]),
        ...contentIndexes.map((i): Path => [...taskPath, "artifacts", i, "artifactId"]),
        ...(doc.firstPath
          ? [
              [...doc.firstPath, "contextId"],
              [...doc.firstPath, "id"],
            ]
          : []),
      ];
      const path = places[pick % places.length] as Path;
      const parent = valueAt(doc.input, path.slice(0, -1)) as JsonObject;
      const name = path[path.length - 1] as string;
      const before = parent[name];
      const choice = variant % 3;
      const site: Site = { root: "input", path };
      if (choice === 0) {
        delete parent[name];
        return { op: "remove", site, before, after: undefined, description: describe(site, "removed") };
      }
      const after = choice === 1 ? "" : uuidFromLabel(`other id ${pick}`);
      parent[name] = after;
      return { op: "replace", site, before, after, description: describe(site, `${show(before)} → ${show(after)}`) };
    }
  }
}

const siteLists = new Map<JsonValue, Site[]>();
const stringLists = new Map<JsonValue, string[]>();

/**
 * Applies a plan to an opened document; undefined when the plan does not apply to it. `key` names
 * the document's seed, whose sites and strings are the same for every fresh copy of it.
 */
export function applyRaw(doc: Doc, plan: RawPlan, key: JsonValue = doc.input): Mutation | undefined {
  if (plan.op >= 10) return a2a(doc, plan.variant + (plan.op === 11 ? 16 : 0), plan.pick);
  let all = siteLists.get(key);
  if (!all) siteLists.set(key, (all = sites(doc)));
  const site = all[plan.site % all.length] as Site;
  const strings = () => {
    let list = stringLists.get(key);
    if (!list) stringLists.set(key, (list = [...stringsOf(doc.input), ...stringsOf(doc.bundle)]));
    return list;
  };
  return generic(rootValue(doc, site.root), site, plan.op, plan.variant, plan.pick, strings);
}

/** Whether the change alters the value at its site (a member reorder, or a swap of equal items, does not). */
export function changesValue(m: Mutation): boolean {
  if (m.op === "reorder") return false;
  if (m.op === "replace" || m.op === "swap")
    return !(m.before !== undefined && m.after !== undefined && jsonEquals(m.before, m.after));
  return true;
}

export type { Root };
