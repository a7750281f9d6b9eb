/**
 * The twelve extension groups whose content Wire02ClaimsSchema validates
 * (schema/src/wire-02-extensions/*.ts, EXTENSION_SCHEMA_MAP), ported rule by rule. Other
 * registered groups (a2a-handoff, agent-action, …) are not validated by PEAC's verifier either:
 * parseReceiptClaims leaves their content to issue-time helpers.
 */
import { all, arr, bool, enumOf, int, obj, optional, record, str, uniqueStrings, type Rule } from "./shape.js";

const SHA256_DIGEST = /^sha256:[0-9a-f]{64}$/;
const CONTROL_CHAR = /[\x00-\x1f\x7f]/;

/** HttpsUriHintSchema: https, no credentials, no fragment, no control characters. */
function isHttpsUriHint(value: string): boolean {
  if (CONTROL_CHAR.test(value) || value.includes("#")) return false;
  try {
    const url = new URL(value);
    return url.protocol === "https:" && url.username === "" && url.password === "" && url.hostname !== "";
  } catch {
    return false;
  }
}
const httpsUriHint = str({
  min: 1,
  max: 2048,
  refine: [isHttpsUriHint, "must be a valid HTTPS URI (no credentials, no fragments, no control characters)"],
});

/** parseIso8601Duration: PnYnMnWnDTnHnMnS, designators once each and in order, weeks alone. */
export function isIso8601Duration(value: string): boolean {
  if (value.length === 0 || value.length > 64 || value[0] !== "P" || value.length === 1) return false;
  let pos = 1;
  let inTime = false;
  let any = false;
  let dateIdx = 0;
  let timeIdx = 0;
  const seen = new Set<string>();
  let weeks = false;
  let other = false;
  while (pos < value.length) {
    if (value[pos] === "T") {
      if (inTime) return false;
      inTime = true;
      pos++;
      if (pos >= value.length) return false;
      continue;
    }
    const start = pos;
    while (pos < value.length && (value[pos] as string) >= "0" && (value[pos] as string) <= "9") pos++;
    if (pos === start || pos - start > 15 || pos >= value.length) return false;
    const n = parseInt(value.slice(start, pos), 10);
    const d = value[pos] as string;
    pos++;
    const key = (inTime ? "T" : "") + d;
    if (seen.has(key)) return false;
    seen.add(key);
    const order = inTime ? ["H", "M", "S"] : ["Y", "M", "W", "D"];
    const idx = order.indexOf(d);
    if (idx === -1) return false;
    if (inTime) {
      if (idx < timeIdx) return false;
      timeIdx = idx + 1;
    } else {
      if (idx < dateIdx) return false;
      dateIdx = idx + 1;
      if (d === "W") weeks ||= n > 0;
      else other ||= n > 0;
    }
    any = true;
  }
  return any && !(weeks && other);
}
const duration = str({ min: 2, max: 64, refine: [isIso8601Duration, "must be a valid ISO 8601 duration"] });
const isoDate = str({ length: 10, pattern: /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])$/ });
const sha256Digest = str({ max: 71, pattern: SHA256_DIGEST });

/** zod 4's `z.iso.datetime({ offset: true })`: seconds required, Z or ±hh:mm, calendar-checked dates. */
export const RFC3339_OFFSET_DATETIME =
  /^(?:(?:\d\d[2468][048]|\d\d[13579][26]|\d\d0[48]|[02468][048]00|[13579][26]00)-02-29|\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\d|30)|(?:02)-(?:0[1-9]|1\d|2[0-8])))T(?:(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?(?:Z|([+-](?:[01]\d|2[0-3]):[0-5]\d)))$/;
const rfc3339 = str({ pattern: RFC3339_OFFSET_DATETIME });

/** isValidSpdxSubsetExpression: license ids (LicenseRef-… allowed), AND/OR, WITH, parentheses. */
export function isSpdxExpression(expr: string): boolean {
  if (expr.length === 0 || expr.length > 128) return false;
  const tokens: string[] = [];
  let cur = "";
  for (const ch of expr) {
    if (ch === "(" || ch === ")") {
      if (cur) tokens.push(cur);
      cur = "";
      tokens.push(ch);
    } else if (ch === " " || ch === "\t") {
      if (cur) tokens.push(cur);
      cur = "";
    } else cur += ch;
  }
  if (cur) tokens.push(cur);
  if (tokens.length === 0) return false;
  const ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
  let pos = 0;
  const isLicense = (t: string): boolean => {
    const base = t.endsWith("+") ? t.slice(0, -1) : t;
    if (base.startsWith("LicenseRef-")) return ID.test(base.slice(11));
    return ID.test(base);
  };
  const atom = (): boolean => {
    const t = tokens[pos];
    if (t === undefined) return false;
    if (t === "(") {
      pos++;
      if (!expression() || tokens[pos] !== ")") return false;
      pos++;
      return true;
    }
    if (t === ")" || t === "AND" || t === "OR" || t === "WITH" || !isLicense(t)) return false;
    pos++;
    return true;
  };
  const term = (): boolean => {
    if (!atom()) return false;
    if (tokens[pos] === "WITH") {
      pos++;
      const e = tokens[pos];
      if (e === undefined || !ID.test(e)) return false;
      pos++;
    }
    return true;
  };
  const expression = (): boolean => {
    if (!term()) return false;
    while (tokens[pos] === "AND" || tokens[pos] === "OR") {
      pos++;
      if (!term()) return false;
    }
    return true;
  };
  return expression() && pos === tokens.length;
}

export const PURPOSE_TOKEN = /^[a-z](?:[a-z0-9_-]*[a-z0-9])?(?::[a-z](?:[a-z0-9_-]*[a-z0-9])?)?$/;
const purposeToken = str({ min: 1, max: 128, pattern: PURPOSE_TOKEN });
const s = (max: number, min = 1): Rule => str({ min, max });
const o = optional;

const P = "org.peacprotocol/";

let schemas: ReadonlyMap<string, Rule> | undefined;
/** The schemas, built when a receipt's extensions are first checked (not by every run that loads this module). */
export function extensionSchemas(): ReadonlyMap<string, Rule> {
  schemas ??= buildSchemas();
  return schemas;
}

const buildSchemas = (): ReadonlyMap<string, Rule> =>
  new Map<string, Rule>([...transactionSchemas(), ...dataGovernanceSchemas(), ...contentSchemas()]);

/** Commerce, access, challenge, identity and correlation: what happened and between whom. */
const transactionSchemas = (): Array<[string, Rule]> => [
  [
    P + "commerce",
    obj({
      payment_rail: s(128),
      amount_minor: str({ min: 1, max: 64, pattern: /^-?[0-9]+$/ }),
      currency: s(16),
      reference: o(s(256, 0)),
      asset: o(s(256, 0)),
      env: o(enumOf(["live", "test"])),
      event: o(enumOf(["authorization", "capture", "settlement", "refund", "void", "chargeback"])),
    }),
  ],
  [P + "access", obj({ resource: s(2048), action: s(256), decision: enumOf(["allow", "deny", "review"]) })],
  [
    P + "challenge",
    obj({
      challenge_type: enumOf([
        "payment_required",
        "identity_required",
        "consent_required",
        "attestation_required",
        "rate_limited",
        "purpose_disallowed",
        "custom",
      ]),
      problem: obj(
        {
          status: int({ min: 100, max: 599 }),
          type: str({ min: 1, max: 2048, url: true }),
          title: o(s(256, 0)),
          detail: o(s(4096, 0)),
          instance: o(s(2048, 0)),
        },
        "passthrough",
      ),
      resource: o(s(2048, 0)),
      action: o(s(256, 0)),
      requirements: o(record()),
    }),
  ],
  [P + "identity", obj({ proof_ref: o(s(256, 0)) })],
  [
    P + "correlation",
    obj({
      trace_id: o(str({ length: 32, pattern: /^[0-9a-f]{32}$/ })),
      span_id: o(str({ length: 16, pattern: /^[0-9a-f]{16}$/ })),
      workflow_id: o(s(256)),
      parent_jti: o(s(256)),
      depends_on: o(arr(s(256), { max: 64 })),
    }),
  ],
];

/** Consent, privacy, safety and compliance: the rules the data and the model were handled under. */
const dataGovernanceSchemas = (): Array<[string, Rule]> => [
  [
    P + "consent",
    obj({
      consent_basis: s(128),
      consent_status: enumOf(["granted", "withdrawn", "denied", "expired"]),
      data_categories: o(arr(s(128), { max: 64 })),
      retention_period: o(duration),
      consent_method: o(s(128)),
      withdrawal_uri: o(httpsUriHint),
      scope: o(s(256)),
      jurisdiction: o(s(16)),
    }),
  ],
  [
    P + "privacy",
    obj({
      data_classification: s(128),
      processing_basis: o(s(128)),
      retention_period: o(duration),
      retention_mode: o(enumOf(["time_bound", "indefinite", "session_only"])),
      recipient_scope: o(enumOf(["internal", "processor", "third_party", "public"])),
      anonymization_method: o(s(128)),
      data_subject_category: o(s(128)),
      transfer_mechanism: o(s(128)),
    }),
  ],
  [
    P + "safety",
    obj({
      review_status: enumOf(["reviewed", "pending", "flagged", "not_applicable"]),
      risk_level: o(enumOf(["unacceptable", "high", "limited", "minimal"])),
      assessment_method: o(s(256)),
      safety_measures: o(arr(s(256), { max: 32 })),
      incident_ref: o(s(256)),
      model_ref: o(s(256)),
      category: o(s(128)),
    }),
  ],
  [
    P + "compliance",
    obj({
      framework: s(256),
      compliance_status: enumOf(["compliant", "non_compliant", "partial", "under_review", "exempt"]),
      audit_ref: o(s(256)),
      auditor: o(s(256)),
      audit_date: o(isoDate),
      scope: o(s(512)),
      validity_period: o(duration),
      evidence_ref: o(sha256Digest),
    }),
  ],
];

/** Provenance, attribution and purpose: where content came from and what it may be used for. */
const contentSchemas = (): Array<[string, Rule]> => [
  [
    P + "provenance",
    obj({
      source_type: s(128),
      source_ref: o(s(256)),
      source_uri: o(httpsUriHint),
      build_provenance_uri: o(httpsUriHint),
      verification_method: o(s(128)),
      custody_chain: o(arr(obj({ custodian: s(256), action: s(128), timestamp: rfc3339 }), { max: 16 })),
      slsa: o(obj({ track: s(64), level: int({ min: 0, max: 4 }), version: s(16) })),
    }),
  ],
  [
    P + "attribution",
    obj({
      creator_ref: s(256),
      license_spdx: o(str({ min: 1, max: 128, refine: [isSpdxExpression, "must be a valid SPDX license expression"] })),
      obligation_type: o(s(128)),
      attribution_text: o(s(1024)),
      content_signal_source: o(
        enumOf(["tdmrep_json", "content_signal_header", "content_usage_header", "robots_txt", "custom"]),
      ),
      content_digest: o(sha256Digest),
    }),
  ],
  [
    P + "purpose",
    obj({
      external_purposes: arr(purposeToken, {
        min: 1,
        max: 32,
        refine: [uniqueStrings, "external_purposes must contain unique items"],
      }),
      purpose_basis: o(s(128)),
      purpose_limitation: o(bool()),
      data_minimization: o(bool()),
      compatible_purposes: o(
        arr(purposeToken, { max: 32, refine: [uniqueStrings, "compatible_purposes must contain unique items"] }),
      ),
      peac_purpose_mapping: o(all(str({ min: 1, max: 64, pattern: PURPOSE_TOKEN }))),
    }),
  ],
];
