/**
 * Where a mutation can land in a document, and the normalized name of that place: the tree it is
 * in (`env` the envelope, `task` the terminal Task, `first` the first Task, `bundle` the evidence
 * bundle in whatever carrier), the evidence Artifact as `E` and content Artifacts as `C`, and the
 * extension URI key as `EXT` (the PEAC one as `PEAC`, the Traceability one as `TRACE`). The
 * coverage map is written in those names.
 */
import { isJsonObject, type JsonValue } from "../../src/json/value.js";
import { EXTENSION_URI } from "../../producer/constants.js";
import { valueAt, type Doc, type Path } from "./corpus.js";

/** The PEAC traceability extension key (peac-carriers.md §5): receipts an A2A Task may carry in metadata. */
export const PEAC_URI = "https://www.peacprotocol.org/ext/traceability/v1";
/** The a2a-samples Traceability metadata key (docs/profile.md §4): a trace the payload may digest. */
export const TRACE_KEY = "github.com/a2aproject/a2a-samples/extensions/traceability/v1/traceability";

export type Root = "input" | "bundle";

export interface Site {
  readonly root: Root;
  /** Path of the value inside its root. */
  readonly path: Path;
}

const startsWith = (path: Path, prefix: Path): boolean =>
  prefix.length <= path.length && prefix.every((s, i) => path[i] === s);

export function rootValue(doc: Doc, root: Root): JsonValue {
  return root === "bundle" ? doc.bundle : doc.input;
}

/** Every value position of the document, depth first; the raw part's base64 string is its decoded bundle instead. */
export function sites(doc: Doc): Site[] {
  const out: Site[] = [];
  const walk = (root: Root, v: JsonValue, path: Path): void => {
    if (Array.isArray(v)) v.forEach((x, i) => visit(root, x, [...path, i]));
    else if (isJsonObject(v)) for (const k of Object.keys(v)) visit(root, v[k] as JsonValue, [...path, k]);
  };
  const visit = (root: Root, v: JsonValue, path: Path): void => {
    if (
      root === "input" &&
      doc.carrier === "raw" &&
      startsWith(path, doc.bundlePath) &&
      path.length === doc.bundlePath.length
    )
      return;
    out.push({ root, path });
    walk(root, v, path);
  };
  walk("input", doc.input, []);
  if (doc.carrier === "raw") walk("bundle", doc.bundle, []);
  return out;
}

/** The normalized name of a site, as the coverage map spells it. */
export function normalize(doc: Doc, site: Site): string[] {
  const seg = (s: string | number): string =>
    s === EXTENSION_URI ? "EXT" : s === PEAC_URI ? "PEAC" : s === TRACE_KEY ? "TRACE" : String(s);
  if (site.root === "bundle") return ["bundle", ...site.path.map(seg)];
  const p = site.path;
  if (doc.carrier !== "raw" && startsWith(p, doc.bundlePath))
    return ["bundle", ...p.slice(doc.bundlePath.length).map(seg)];
  if (doc.firstPath && startsWith(p, doc.firstPath)) return ["first", ...p.slice(doc.firstPath.length).map(seg)];
  if (startsWith(p, doc.taskPath) && (doc.taskPath.length > 0 || !["jsonrpc"].includes(String(p[0])))) {
    const rest = p.slice(doc.taskPath.length);
    const out = rest.map(seg);
    if (rest[0] === "artifacts" && typeof rest[1] === "number") out[1] = rest[1] === doc.evidenceIndex ? "E" : "C";
    return ["task", ...out];
  }
  return ["env", ...p.map(seg)];
}

/** A site's value, or undefined when the path no longer resolves. */
export function valueOf(doc: Doc, site: Site): JsonValue | undefined {
  return valueAt(rootValue(doc, site.root), site.path);
}
