/**
 * One compact JWS from a carrier, verified offline under the caller's pinned PEAC issuer keys
 * (peac-carriers.md §5 steps 7–13), format first: decode and the claims envelope, then the key
 * (only from the trust file, by the receipt's own unverified iss and kid), the PEAC-profile
 * Ed25519 signature, the time rules when the caller gave a time, and strict type-to-extension
 * enforcement — verifyLocal's order, so the deciding code is the one PEAC would report.
 *
 * A PASS means: the pinned key of that issuer signed exactly these bytes, and they are a
 * well-formed Wire 0.2 record. It says nothing about which A2A Task the record is about: Wire 0.2
 * claims carry no Task binding, so every claim is reported as the issuer's claim, not a fact.
 */
import { isJsonObject, member, type JsonObject } from "../json/value.js";
import type { PeacCode } from "../codes/peac.js";
import {
  describeIssues,
  envelopeIssues,
  isoSeconds,
  kernelConstraintViolation,
  timeFailure,
  typeAndWarnings,
  type ClaimsFailure,
  type Warning,
} from "./claims.js";
import { verifyPeacEd25519 } from "./ed25519.js";
import { decodeCompactJws, type DecodedJws } from "./jws.js";
import { printable } from "../util/printable.js";

/** A pinned issuer as the receipt verifier needs it: raw Ed25519 keys by kid, and revoked kids. */
export interface PinnedPeacIssuer {
  readonly keys: ReadonlyMap<
    string,
    { readonly raw: Uint8Array; /** Where the key is pinned, for reports. */ readonly path: string }
  >;
  readonly revokedKids: ReadonlySet<string>;
}

export interface ReceiptVerdict {
  readonly state: "PASS" | "FAIL" | "INCONCLUSIVE";
  readonly code?: PeacCode;
  readonly detail: string;
  /** The receipt's claims, once decoded: what the issuer says, never verified facts about the Task. */
  readonly claims: Readonly<Record<string, string>>;
  readonly warnings: readonly string[];
  /** Whether the time rules ran (false when no time was given, or the receipt failed before them). */
  readonly timeChecked: boolean;
  /** The verified issuer and jti, for the duplicate-jti rule; only on a PASS. */
  readonly identity?: { readonly iss: string; readonly jti: string };
}

const HANDOFF = "org.peacprotocol/a2a-handoff";

function claimSummary(header: JsonObject, payload: JsonObject): Record<string, string> {
  const out: Record<string, string> = {};
  const put = (name: string, v: unknown): void => {
    if (typeof v === "string") out[name] = printable(v);
  };
  for (const name of ["iss", "type", "kind", "jti", "sub", "occurred_at"]) put(name, member(payload, name));
  put("kid", member(header, "kid"));
  const iat = member(payload, "iat");
  if (iat !== undefined && typeof iat === "object" && iat !== null && "lexeme" in iat) {
    out.iat = `${iat.lexeme} (${isoSeconds(Number(iat.lexeme))})`;
  }
  const ext = member(payload, "extensions");
  const handoff = isJsonObject(ext) ? member(ext, HANDOFF) : undefined;
  if (isJsonObject(handoff)) {
    put("handoff_task_id", member(handoff, "task_id"));
    put("handoff_event", member(handoff, "event"));
  }
  if (isJsonObject(member(payload, "policy"))) out.policy_binding = "unavailable (no local policy digest to compare)";
  return out;
}

const showWarning = (w: Warning): string => (w.pointer !== undefined ? `${w.code} ${w.pointer}` : w.code);

/** A verdict that stops before the time rules, carrying the receipt's claims as decoded. */
type Stopped = (
  state: "FAIL" | "INCONCLUSIVE",
  code: PeacCode,
  detail: string,
  warnings?: readonly string[],
) => ReceiptVerdict;

const stoppedWith =
  (claims: Readonly<Record<string, string>>): Stopped =>
  (state, code, detail, warnings = []) => ({
    state,
    code,
    detail,
    claims,
    warnings,
    timeChecked: false,
  });

/** The pinned key that verified the signature, with the issuer and kid as reports show them. */
interface Signer {
  readonly iss: string;
  readonly shownKid: string;
  readonly shownIss: string;
  readonly keyPath: string;
}

/**
 * The key step: revocation, the pinned key by the receipt's own iss and kid, then the signature.
 * Returns the verdict when the receipt stops here, else who signed it.
 */
function pinnedSigner(
  decoded: DecodedJws,
  issuers: ReadonlyMap<string, PinnedPeacIssuer>,
  typedFailure: ClaimsFailure | undefined,
  warnings: readonly string[],
  failed: Stopped,
): ReceiptVerdict | Signer {
  const { payload, kid } = decoded;
  const iss = member(payload, "iss") as string;
  const shownKid = printable(JSON.stringify(kid));
  // A did: issuer's method-specific id may hold any character but "#", "?" and "/".
  const shownIss = printable(iss);
  const issuer = issuers.get(iss);
  if (issuer?.revokedKids.has(kid))
    return failed(
      "FAIL",
      "E_REVOKED_KEY_USED",
      `the trust file lists kid ${shownKid} as revoked for ${shownIss}${issuer.keys.has(kid) ? " (it also pins a key under that kid: revocation wins)" : ""}`,
      warnings,
    );
  const key = issuer?.keys.get(kid);
  if (key === undefined) {
    // Without a key the signature cannot be judged, but a strict-profile violation is certain.
    if (typedFailure) return failed("FAIL", typedFailure.code, typedFailure.detail, warnings);
    const why =
      issuer === undefined
        ? `no PEAC issuer ${shownIss} is pinned`
        : `${shownIss} has no pinned key with kid ${shownKid}`;
    return failed("INCONCLUSIVE", "E_KEY_NOT_FOUND", `${why}: the signature cannot be checked offline`, warnings);
  }
  const sig = verifyPeacEd25519(key.raw, decoded.signingInput, decoded.signature);
  if (!sig.valid)
    return failed(
      "FAIL",
      "E_INVALID_SIGNATURE",
      `${sig.reason} under the pinned key ${shownKid} of ${shownIss}`,
      warnings,
    );
  return { iss, shownKid, shownIss, keyPath: key.path };
}

/**
 * Verifies one receipt. `issuers` is the trust file's peacIssuers (empty when none are pinned);
 * `now` is the caller's time in Unix seconds, or undefined to leave the time rules unchecked.
 */
export function verifyReceipt(
  jws: string,
  issuers: ReadonlyMap<string, PinnedPeacIssuer>,
  now: number | undefined,
): ReceiptVerdict {
  const decoded = decodeCompactJws(jws);
  if (!decoded.ok)
    return { state: "FAIL", code: decoded.code, detail: decoded.detail, claims: {}, warnings: [], timeChecked: false };
  const { header, payload, wire } = decoded.value;
  const claims = { wire, ...claimSummary(header, payload) };
  const failed = stoppedWith(claims);
  if (wire === "0.1") {
    return failed(
      "INCONCLUSIVE",
      "E_UNSUPPORTED_WIRE_VERSION",
      "a Wire 0.1 (peac-receipt/0.1) receipt: Wire 0.1 is frozen and PEAC's Wire 0.2 verifiers refuse it",
    );
  }
  // Claims that no key could make valid are reported as such before any key is looked up.
  const constraint = kernelConstraintViolation(payload);
  if (constraint !== undefined)
    return failed("FAIL", "E_CONSTRAINT_VIOLATION", `kernel constraint violated: ${constraint}`);
  const issues = envelopeIssues(payload);
  if (issues.length > 0)
    return failed("FAIL", "E_INVALID_FORMAT", `Wire 0.2 claims do not conform: ${describeIssues(issues)}`);
  const typed = typeAndWarnings(payload);
  const warnings = typed.warnings.map(showWarning);
  const signer = pinnedSigner(decoded.value, issuers, typed.failure, warnings, failed);
  if ("state" in signer) return signer;
  const { iss, shownKid, shownIss } = signer;

  const verified = { ...claims, key: signer.keyPath };
  if (now !== undefined) {
    const late = timeFailure(payload, now);
    if (late)
      return { state: "FAIL", code: late.code, detail: late.detail, claims: verified, warnings, timeChecked: true };
  }
  // verifyLocal's order: the strict type-to-extension rule comes after the time rules.
  if (typed.failure)
    return {
      state: "FAIL",
      code: typed.failure.code,
      detail: typed.failure.detail,
      claims: verified,
      warnings,
      timeChecked: now !== undefined,
    };
  return {
    state: "PASS",
    detail: `signed by the pinned key ${shownKid} of ${shownIss} and unmodified; its claims are the issuer's, not bound to this Task`,
    claims: verified,
    warnings,
    timeChecked: now !== undefined,
    identity: { iss, jti: member(payload, "jti") as string },
  };
}
