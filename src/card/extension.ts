/**
 * A card that declares the A2A Task Evidence extension states, in `params`, what a client may ask
 * for (a2a-wire.md §6.2): `recordProfiles`, `deliveryModes`, `minimumEvidenceLevels`. A client
 * builds its requirement from them, so params that contradict the profile — an unknown level, a
 * prefixed status where a bare level belongs, a delivery mode that does not exist, the extension
 * declared twice with different params, or marked `required` (clients that do not activate it are
 * refused, −32008) — are flagged, each with its path.
 */
import { isJsonObject, jsonEquals, member, type JsonValue } from "../json/value.js";
import { joinPath } from "../json/path.js";
import { showValue } from "../json/diff.js";
import { DELIVERY_MODES, EVIDENCE_LEVELS, EXTENSION_URI, RECORD_PROFILE_V1 } from "../profile.js";

export interface ExtensionFinding {
  readonly path: string;
  readonly detail: string;
}

export interface ExtensionDeclaration {
  /** Paths of the `capabilities.extensions[]` entries that name the evidence extension. */
  readonly declaredAt: readonly string[];
  readonly findings: readonly ExtensionFinding[];
}

const KNOWN_PARAMS: Readonly<Record<string, readonly string[]>> = {
  recordProfiles: [RECORD_PROFILE_V1],
  deliveryModes: DELIVERY_MODES,
  minimumEvidenceLevels: EVIDENCE_LEVELS,
};

function listFindings(name: string, v: JsonValue, at: string, known: readonly string[]): ExtensionFinding[] {
  if (!Array.isArray(v) || v.length === 0)
    return [{ path: at, detail: `${name} ${showValue(v)} is not a non-empty list` }];
  const out: ExtensionFinding[] = [];
  const seen = new Set<string>();
  for (const [i, item] of v.entries()) {
    const p = joinPath(at, i);
    if (typeof item !== "string") out.push({ path: p, detail: `${name} entry ${showValue(item)} is not a string` });
    else if (seen.has(item)) out.push({ path: p, detail: `${name} lists ${item} twice` });
    else if (!known.includes(item)) {
      const hint =
        name === "minimumEvidenceLevels" && item.startsWith("EVIDENCE_STATUS_")
          ? ` (levels are bare names: ${item.slice("EVIDENCE_STATUS_".length)})`
          : "";
      out.push({ path: p, detail: `${name} names ${item}, which the profile does not define${hint}` });
    }
    if (typeof item === "string") seen.add(item);
  }
  return out;
}

export function evidenceExtension(card: JsonValue): ExtensionDeclaration {
  const capabilities = isJsonObject(card) ? member(card, "capabilities") : undefined;
  const extensions = isJsonObject(capabilities) ? member(capabilities, "extensions") : undefined;
  if (!Array.isArray(extensions)) return { declaredAt: [], findings: [] };
  const declaredAt: string[] = [];
  const findings: ExtensionFinding[] = [];
  let firstParams: JsonValue | undefined;
  for (const [i, e] of extensions.entries()) {
    if (!isJsonObject(e) || member(e, "uri") !== EXTENSION_URI) continue;
    const at = joinPath("capabilities", "extensions", i);
    declaredAt.push(at);
    if (member(e, "required") === true) {
      findings.push({
        path: joinPath(at, "required"),
        detail:
          "the evidence extension is marked required: clients that do not activate it are refused (−32008), though it only adds data",
      });
    }
    const params = member(e, "params");
    if (declaredAt.length > 1 && !jsonEquals(params, firstParams)) {
      findings.push({
        path: joinPath(at, "params"),
        detail: `the evidence extension is declared again with different params than at ${declaredAt[0]}`,
      });
    }
    if (declaredAt.length === 1) firstParams = params;
    if (params === undefined || params === null) {
      findings.push({
        path: at,
        detail:
          "the evidence extension is declared without params: no record profile, delivery mode or level is offered",
      });
      continue;
    }
    if (!isJsonObject(params)) {
      findings.push({ path: joinPath(at, "params"), detail: `params ${showValue(params)} is not an object` });
      continue;
    }
    for (const name of Object.keys(KNOWN_PARAMS)) {
      const v = member(params, name);
      const p = joinPath(at, "params", name);
      if (v === undefined) findings.push({ path: p, detail: `params has no ${name}` });
      else findings.push(...listFindings(name, v, p, KNOWN_PARAMS[name] as readonly string[]));
    }
    for (const name of Object.keys(params)) {
      if (!Object.hasOwn(KNOWN_PARAMS, name))
        findings.push({
          path: joinPath(at, "params", name),
          detail: `params has ${name}, which the profile does not define`,
        });
    }
  }
  return { declaredAt, findings };
}
