/**
 * continuity, form A (continuity-witness.md §4.2 A.4, as settled by contract §9.22): C2SP
 * cosignature/v1 lines over the CLL notes of the current and prior checkpoints, counted against
 * the trust file's witnesses and continuityPolicy. Pure: the chain gate has already run, and the
 * caller says how it ended.
 *
 *   cosignature.note       each checkpoint that has lines renders as a note (else INCONCLUSIVE)
 *   cosignature.line       a line is "— <name> <base64>" (FAIL when not)
 *   cosignature.unknown    lines whose (name, key ID) no witness pins: reported, ignored
 *   cosignature.signature  each line under a pinned key verifies over "cosignature/v1\ntime T\n" ‖
 *                          note. A failure is a FAIL whether or not the witness is eligible:
 *                          a forged or misattached cosignature is never outvoted
 *   cosignature.time       the witness's claimed time: NOT_CHECKED without --at; with it, a time
 *                          beyond maxFutureSkewSeconds is INCONCLUSIVE and does not count
 *   witness.eligible       per witness with a verified line: did not equivocate anywhere in the
 *                          run (§9.40), independent (trust file label, no key shared with another
 *                          role, no producer-operated witness of its operator: §9.41), states
 *                          cll-mmr-consistency/v1, cosigned the checkpoints the policy needs, prior
 *                          no later than current
 *   witness.quorum         distinct operators among counted witnesses ≥ quorum; otherwise (and for
 *                          genesis without acceptGenesis, or a prior not carried) INCONCLUSIVE
 */
import type { Checkpoint } from "../../log/checkpoint.js";
import type { Result } from "../../result.js";
import type { ContinuityPolicy, TrustConfig, TrustedWitness, TrustedWitnessKey } from "../../trust/config.js";
import type { CllNote } from "../../witness/cll-note.js";
import { verifyCosignature, type TimestampedSignature } from "../../witness/cosignature.js";
import type { CarriedLine, CheckpointRole } from "../../witness/evidence.js";
import { labelOf } from "../../evidence/cosignatures.js";
import { producerOperatedWitnesses } from "../../evidence/operator.js";
import type { LineReading, WitnessLines } from "../../evidence/witness-lines.js";
import type { WitnessEquivocation } from "../../witness/pool.js";
import { showTimestamp } from "../../witness/time.js";
import { checksFor } from "../shared/checks.js";
import type { Check } from "../shared/types.js";
import { witnessKeyWindow } from "../../keys/witness-window.js";
import type { TimeSource } from "../../keys/judge.js";

/** Form A's check ids, in the order its checks are listed above. */
export const FORM_A_IDS = [
  "cosignature.note",
  "cosignature.line",
  "cosignature.unknown",
  "cosignature.signature",
  "cosignature.time",
  "witness.eligible",
  "witness.quorum",
] as const;
const { check } = checksFor(FORM_A_IDS);

/** The statement a witness key must carry to count (C2SP "additional statements", bound in the trust file). */
export const CONSISTENCY_STATEMENT = "cll-mmr-consistency/v1";
/** Hints are capped: a list of unknown cosigners, or of witnesses not counted, stops here. */
const HINT_CAP = 20;

/** How the chain gate (§4.1) ended for this bundle. */
export type ChainOutcome =
  /** A prior checkpoint is carried, signed, and the consistency proof verifies. */
  | "chained"
  /** A log's first checkpoint: prev_size 0, no prior. */
  | "genesis"
  /** prev_size > 0 but no prior is carried. */
  | "prior-missing"
  /** The chain FAILed (reported under chain.link). */
  | "broken";

export interface FormAInput {
  readonly current: Checkpoint;
  /** The prior checkpoint, when the bundle carries a well-formed one. */
  readonly prior: Checkpoint | null;
  readonly chain: ChainOutcome;
  /** The carried lines, read against the pinned keys over the checkpoints' notes (src/evidence/witness-lines.ts). */
  readonly lines: WitnessLines;
  /** undefined: no trust file. */
  readonly witnesses: readonly TrustedWitness[] | undefined;
  /** The trust file, for the windows it gives a witness key wherever it pins it; undefined: none. */
  readonly trust: TrustConfig | undefined;
  readonly policy: ContinuityPolicy;
  /** Raw Ed25519 keys (hex) in any other role, with that role: a witness holding one is producer-operated. */
  readonly otherRoles: ReadonlyMap<string, string>;
  /** The caller's --at, parsed; undefined when none was given. */
  readonly at: Result<bigint> | undefined;
  /** The caller's --at as the key rules judge at it (src/keys/service-window.ts `callerAt`); undefined without one. */
  readonly callerTime?: TimeSource;
  /**
   * The witness keys that equivocated in the run (contract §9.40), this input's verified lines
   * included; undefined when nothing else is compared.
   */
  readonly equivocations?: ReadonlyMap<string, WitnessEquivocation>;
}

interface VerifiedLine {
  readonly role: CheckpointRole;
  readonly timestamp: bigint;
  /** False when --at shows the claimed time too far ahead. */
  readonly usable: boolean;
}

function capped(items: readonly string[]): string {
  const shown = items.slice(0, HINT_CAP).join(", ");
  return items.length > HINT_CAP ? `${shown} and ${items.length - HINT_CAP} more` : shown;
}

export function formAChecks(input: FormAInput): Check[] {
  const checks: Check[] = [];
  const notes = noteChecks(input, checks);
  const lines: Lines = {
    input,
    notes,
    producer: producerOperatedWitnesses(input.witnesses ?? [], input.otherRoles),
    verified: new Map(),
    unknown: [],
  };
  for (const reading of input.lines.read) {
    const note = notes[reading.carried.role];
    if (note !== undefined) checks.push(...lineChecks(reading, note, lines));
  }
  if (lines.unknown.length > 0) {
    checks.push(
      check(
        "cosignature.unknown",
        "NOT_CHECKED",
        `${lines.unknown.length} line(s) from cosigners no trust-file witness pins, ignored: ${capped(lines.unknown)}`,
      ),
    );
  }
  checks.push(...countedChecks(lines));
  return checks;
}

/** What the line checks share, and what they gather for the quorum. */
interface Lines {
  readonly input: FormAInput;
  readonly notes: Partial<Record<CheckpointRole, CllNote>>;
  readonly producer: ReadonlyMap<TrustedWitness, string>;
  readonly verified: Map<TrustedWitness, VerifiedLine[]>;
  readonly unknown: string[];
}

/** cosignature.note for each checkpoint some line cosigns; the notes its lines were verified over. */
function noteChecks(input: FormAInput, checks: Check[]): Partial<Record<CheckpointRole, CllNote>> {
  const notes: Partial<Record<CheckpointRole, CllNote>> = {};
  const byRole = (role: CheckpointRole) => input.lines.carried.filter((l: CarriedLine) => l.role === role);
  for (const role of ["current", "prior"] as const) {
    if (byRole(role).length === 0) continue;
    const subject = `${role} checkpoint`;
    const note = input.lines.notes[role];
    if (note === undefined) {
      checks.push(
        check(
          "cosignature.note",
          "NOT_CHECKED",
          `${byRole("prior").length} line(s) cosign a prior checkpoint the bundle does not carry (or carries malformed): ignored`,
          { subject },
        ),
      );
      continue;
    }
    if (!note.ok) {
      checks.push(
        check(
          "cosignature.note",
          "INCONCLUSIVE",
          `no C2SP note can be rendered, so no cosignature can be checked: ${note.detail}`,
          { subject, code: note.code },
        ),
      );
      continue;
    }
    notes[role] = note.value;
    checks.push(
      check(
        "cosignature.note",
        "PASS",
        `rendered as a cll-mmr/v1 note: ${note.value.origin}, ${note.value.leafCount} leaves, root ${note.value.rootBase64}`,
        {
          subject,
          values: { origin: note.value.origin, leafCount: String(note.value.leafCount), root: note.value.rootBase64 },
        },
      ),
    );
  }
  return notes;
}

/** One carried line: a signature line, under a pinned key, verifying over the note, at a usable time. */
function lineChecks(reading: LineReading, note: CllNote, lines: Lines): Check[] {
  const { carried, line } = reading;
  const role = carried.role;
  const subject = carried.path;
  if (!line.ok)
    return [
      check("cosignature.line", "FAIL", `not a C2SP signature line: ${line.detail}`, { subject, code: line.code }),
    ];
  const hit = reading.pinned;
  if (hit === undefined) {
    lines.unknown.push(`${line.value.name}+${line.value.keyIdHex}`);
    return [];
  }
  const label = labelOf(hit.witness);
  const values = { witness: label, name: hit.witness.name, keyId: hit.key.keyIdHex, checkpoint: role };
  const operator = lines.producer.has(hit.witness) ? ("producer-operated" as const) : ("independent" as const);
  const signed = hit.signed;
  if (!signed.ok) {
    return [
      check("cosignature.signature", "FAIL", `${label}: ${signed.detail}, under a pinned witness key`, {
        subject,
        code: signed.code,
        values,
        operator,
      }),
    ];
  }
  const at = { ...values, timestamp: signed.value.timestamp.toString() };
  if (!hit.verified)
    return [unverifiedCheck(label, role, note, lines.notes, signed.value, hit.key, { subject, values: at, operator })];
  const passed = check(
    "cosignature.signature",
    "PASS",
    `${label} cosigned the ${role} checkpoint (cosignature/v1 under key ID ${hit.key.keyIdHex})`,
    { subject, values: at, operator },
  );
  const time = timeCheck(signed.value.timestamp, lines.input, subject);
  const window = witnessKeyWindow(
    lines.input.trust,
    hit.key,
    signed.value.timestamp,
    lines.input.callerTime,
    label,
    subject,
  );
  const inWindow = window === undefined || window.state === "PASS";
  const list = lines.verified.get(hit.witness) ?? [];
  list.push({ role, timestamp: signed.value.timestamp, usable: time.state !== "INCONCLUSIVE" && inWindow });
  lines.verified.set(hit.witness, list);
  return window ? [passed, time, window] : [passed, time];
}

/** A cosignature that does not verify over its note FAILs; a diagnosis, not a rescue, says when it was moved. */
function unverifiedCheck(
  label: string,
  role: CheckpointRole,
  note: CllNote,
  notes: Partial<Record<CheckpointRole, CllNote>>,
  signed: TimestampedSignature,
  key: TrustedWitnessKey,
  extras: { subject: string; values: Record<string, string>; operator: "producer-operated" | "independent" },
): Check {
  // A diagnosis, not a rescue: the line still FAILs, but an auditor learns it was moved.
  const other = notes[role === "current" ? "prior" : "current"];
  const moved = other !== undefined && verifyCosignature(other.text, signed, key.key);
  const why = moved
    ? `it is the witness's cosignature of the ${role === "current" ? "prior" : "current"} checkpoint (${other.leafCount} leaves), carried for the ${role} one`
    : "forged, corrupted, or about another checkpoint";
  return check(
    "cosignature.signature",
    "FAIL",
    `${label}'s cosignature does not verify over the ${role} checkpoint's note (${note.leafCount} leaves, root ${note.rootBase64}) under its pinned key: ${why}`,
    {
      subject: extras.subject,
      code: "COSIGNATURE_INVALID",
      values: extras.values,
      operator: extras.operator,
    },
  );
}

/** witness.eligible per witness whose lines verified, and witness.quorum over the operators counted. */
function countedChecks(lines: Lines): Check[] {
  const { input, producer } = lines;
  const checks: Check[] = [];
  const equivocations = input.equivocations;
  const counted = new Map<string, string[]>();
  const notCounted: Check[] = [];
  for (const [witness, verified] of lines.verified) {
    const equivocated = witness.keys.map((k) => equivocations?.get(k.publicKeyHex)).find((e) => e !== undefined);
    const c = eligibility(witness, verified, input, { producer: producer.get(witness), equivocated });
    checks.push(c);
    if (c.state === "PASS")
      counted.set(witness.operatorId, [...(counted.get(witness.operatorId) ?? []), labelOf(witness)]);
    else notCounted.push(c);
  }
  checks.push(quorumCheck(input, counted, notCounted, lines.unknown.length, input.lines.duplicates));
  return checks;
}

function timeCheck(timestamp: bigint, input: FormAInput, subject: string): Check {
  const claimed = showTimestamp(timestamp);
  const values = { timestamp: timestamp.toString() };
  if (input.at === undefined) {
    return check(
      "cosignature.time",
      "NOT_CHECKED",
      `claims ${claimed}, reported as the witness's claim: no --at time is given to check it against`,
      { subject, values },
    );
  }
  if (!input.at.ok)
    return check("cosignature.time", "INCONCLUSIVE", input.at.detail, { subject, code: input.at.code, values });
  const ahead = timestamp - input.at.value;
  const at = { ...values, at: input.at.value.toString() };
  if (ahead > BigInt(input.policy.maxFutureSkewSeconds)) {
    return check(
      "cosignature.time",
      "INCONCLUSIVE",
      `claims ${claimed}, ${ahead} s after --at (more than maxFutureSkewSeconds ${input.policy.maxFutureSkewSeconds}): not counted`,
      {
        subject,
        code: "COSIGNATURE_TIMESTAMP_FUTURE",
        values: at,
      },
    );
  }
  const relation = ahead > 0n ? `${ahead} s after --at, within maxFutureSkewSeconds` : `${-ahead} s before --at`;
  return check("cosignature.time", "PASS", `claims ${claimed}, ${relation}`, { subject, values: at });
}

/** What the run found against a witness: why it is producer-operated, and an equivocation of its key. */
interface Against {
  readonly producer: string | undefined;
  readonly equivocated: WitnessEquivocation | undefined;
}

/** Who the checks of one witness are about: its label, its names, and whether its operator is the producer. */
interface About {
  readonly subject: string;
  readonly values: { readonly witness: string; readonly name: string; readonly operatorId: string };
  readonly operator: "producer-operated" | "independent";
}

function eligibility(
  witness: TrustedWitness,
  lines: readonly VerifiedLine[],
  input: FormAInput,
  against: Against,
): Check {
  const subject = labelOf(witness);
  const about: About = {
    subject,
    values: { witness: subject, name: witness.name, operatorId: witness.operatorId },
    operator: against.producer ? "producer-operated" : "independent",
  };
  return standingCheck(witness, against, about) ?? cosignedCheck(witness, lines, input, about);
}

/** A witness that equivocated, is the producer's, or states no consistency is never counted. */
function standingCheck(
  witness: TrustedWitness,
  { producer, equivocated }: Against,
  { subject, values, operator }: About,
): Check | undefined {
  if (equivocated) {
    const e = equivocated;
    return check(
      "witness.eligible",
      "NOT_CHECKED",
      `equivocated: its key cosigned two roots for ${e.origin} at size ${e.size}, ${e.root} (${e.where}) and ${e.otherRoot} (${e.otherWhere}); a witness that cosigns a fork vouches for nothing, never counted in this run`,
      {
        subject,
        code: "WITNESS_EQUIVOCATION",
        values: {
          ...values,
          origin: e.origin,
          size: e.size,
          root: e.root,
          line: e.where,
          otherRoot: e.otherRoot,
          otherLine: e.otherWhere,
        },
        operator,
      },
    );
  }
  if (producer)
    return check("witness.eligible", "NOT_CHECKED", `producer-operated, reported and never counted: ${producer}`, {
      subject,
      code: "WITNESS_PRODUCER_OPERATED",
      values,
      operator,
    });
  if (!witness.statements.includes(CONSISTENCY_STATEMENT)) {
    return check(
      "witness.eligible",
      "NOT_CHECKED",
      `the trust file binds no ${CONSISTENCY_STATEMENT} statement to its key: not counted`,
      { subject, code: "WITNESS_NO_STATEMENT", values, operator },
    );
  }
  return undefined;
}

/** Its counted cosignatures: of the current checkpoint, of the prior one where needed, in time order. */
function cosignedCheck(
  witness: TrustedWitness,
  lines: readonly VerifiedLine[],
  input: FormAInput,
  { subject, values, operator }: About,
): Check {
  const usable = lines.filter((l) => l.usable);
  const current = usable.filter((l) => l.role === "current").map((l) => l.timestamp);
  const prior = usable.filter((l) => l.role === "prior").map((l) => l.timestamp);
  if (current.length === 0) {
    return check("witness.eligible", "NOT_CHECKED", "no counted cosignature of the current checkpoint: not counted", {
      subject,
      code: "WITNESS_CHECKPOINT_NOT_COSIGNED",
      values,
      operator,
    });
  }
  const needsPrior = input.chain !== "genesis" && input.policy.requirePriorCosigned;
  if (needsPrior && prior.length === 0) {
    return check(
      "witness.eligible",
      "NOT_CHECKED",
      "cosigned the current checkpoint but not the prior one (requirePriorCosigned): it may never have seen the prior, not counted",
      {
        subject,
        code: "WITNESS_CHECKPOINT_NOT_COSIGNED",
        values,
        operator,
      },
    );
  }
  if (prior.length > 0) {
    const latestPrior = prior.reduce((a, b) => (a > b ? a : b));
    const earliestCurrent = current.reduce((a, b) => (a < b ? a : b));
    // An honest tlog-witness never cosigns an older head after a newer one: two such statements
    // under one key are evidence against the witness, which then vouches for nothing.
    if (latestPrior > earliestCurrent) {
      return check(
        "witness.eligible",
        "INCONCLUSIVE",
        `cosigned the prior checkpoint at ${showTimestamp(latestPrior)}, after the current one at ${showTimestamp(earliestCurrent)}: the witness contradicts itself, not counted`,
        {
          subject,
          code: "WITNESS_INCONSISTENT",
          values,
          operator,
        },
      );
    }
  }
  const what = prior.length > 0 ? "the prior and current checkpoints" : "the current checkpoint";
  return check(
    "witness.eligible",
    "PASS",
    `independent (operator ${witness.operatorId}), states ${CONSISTENCY_STATEMENT}, cosigned ${what}: counted`,
    { subject, values, operator },
  );
}

function quorumCheck(
  input: FormAInput,
  counted: ReadonlyMap<string, string[]>,
  notCounted: readonly Check[],
  unknown: number,
  duplicates: number,
): Check {
  const id = "witness.quorum";
  // A quorum below one would PASS on no witness at all; a policy loaded outside the schema cannot lower it.
  const quorum = Math.max(1, input.policy.quorum);
  const operators = [...counted].map(([op, labels]) =>
    labels.length === 1 && labels[0] === op ? op : `${op} (${labels.join(", ")})`,
  );
  const values = { quorum: String(quorum), counted: String(counted.size) };
  const dup = duplicates > 0 ? `; ${duplicates} exact duplicate line(s) counted once` : "";
  if (input.witnesses === undefined) {
    return check(id, "INCONCLUSIVE", "no trust file: no witness key is pinned, so no cosignature can be verified", {
      code: "WITNESS_BELOW_QUORUM",
      values,
    });
  }
  if (input.chain === "prior-missing") {
    return check(
      id,
      "INCONCLUSIVE",
      `the prior checkpoint (prev_size ${input.current.prevSize}) is not carried: the history the witnesses vouch for cannot be checked`,
      {
        code: "CONTINUITY_PRIOR_NOT_CARRIED",
        values,
      },
    );
  }
  if (input.chain === "genesis" && !input.policy.acceptGenesis) {
    return check(
      id,
      "INCONCLUSIVE",
      `witnessed genesis: a log's first checkpoint (prev_size 0) has no prior to be continuous with, and continuityPolicy.acceptGenesis is false (${counted.size} independent operator(s) cosigned it)`,
      {
        code: "CONTINUITY_GENESIS",
        values,
      },
    );
  }
  if (counted.size >= quorum) {
    const over =
      input.chain === "genesis"
        ? "a first checkpoint, accepted by continuityPolicy.acceptGenesis"
        : `a verified chain from mmr_size ${input.current.prevSize} to ${input.current.mmrSize}`;
    return check(
      id,
      "PASS",
      `witnessed by ${counted.size} independent operator(s), ${quorum} required: ${capped(operators)}, over ${over}${dup}`,
      { values },
    );
  }
  const excluded = notCounted.map((c) => `${c.subject} (${c.detail})`);
  const why =
    counted.size === 0 && notCounted.length === 0
      ? `no cosignature verified under a pinned witness key${unknown > 0 ? ` (${unknown} line(s) from unknown cosigners)` : ""}`
      : counted.size === 0 && notCounted.every((c) => c.code === "WITNESS_PRODUCER_OPERATED")
        ? `only producer-operated witnesses cosigned: ${capped(excluded)}`
        : `${counted.size === 0 ? "no independent operator counted" : `only ${capped(operators)}`}${excluded.length > 0 ? `; not counted: ${capped(excluded)}` : ""}`;
  return check(
    id,
    "INCONCLUSIVE",
    `witnessed by ${counted.size} independent operator(s), ${quorum} required: ${why}${dup}`,
    { code: "WITNESS_BELOW_QUORUM", values },
  );
}
