/**
 * continuity — independent, checkpoint-aware witnesses vouched for the history between the prior
 * checkpoint and this one (contract §4, §9.22; log-and-receipts.md §4.4, §6;
 * continuity-witness.md §4.1 the chain gate, §4.2 form A).
 *
 * The chain gate, which decides FAIL independently of any witness:
 *   prior.checkpoint       manifest.priorCheckpoint (and consistencyProof) are well-formed
 *   chain.link             prior signature, same log_id, prev_size == prior.mmr_size,
 *                          prev_root == prior.root, growth, and the MMR consistency proof from the
 *                          prior root to this one; or, with no prior, the first-checkpoint rules
 *   chain.key              (with cosignatures) prior and current signed by one key: a rotation
 *                          cannot be proven offline, so INCONCLUSIVE
 * The witnesses, C2SP cosignature/v1 lines from `continuityEvidence` or `--cosignatures`:
 *   cosignature.evidence   the carriers are well-formed
 *   cosignature.type       entries of a type this verifier does not implement: reported, ignored
 *   cosignature.*, witness.*  form A (continuity-form-a.ts): each line under a pinned witness key
 *                          verifies over the note rendered from the checkpoint; a quorum of
 *                          distinct independent operators counted
 *   witness.assertion      NOT_PRESENT when no cosignature is carried
 * And, when the caller compared inputs (several inputs, or --checkpoints; `withCrossInput`):
 *   equivocation.crossInput  no other checkpoint of this log gives another root at a size this
 *                          input states (src/witness/equivocation.ts)
 *
 * PASS needs the chain verified and the quorum met. A consistency proof alone is anti-rewrite
 * between two checkpoints the producer signed; only witnesses that keep per-log state and refuse
 * to cosign a fork make a split view visible — and only to relying parties that check them.
 */
import { isJsonObject, member, memberAt, type JsonObject, type JsonValue } from "../json/value.js";
import { parseStrictJson } from "../json/strict-json.js";
import { parseCheckpoint, verifyCheckpointSignature, type Checkpoint } from "../log/checkpoint.js";
import { verifyCheckpointChain } from "../log/checkpoint-chain.js";
import { parseConsistencyProof, type ConsistencyProof } from "../log/mmr.js";
import { fail, type Result } from "../result.js";
import { DEFAULT_CONTINUITY_POLICY, type TrustConfig } from "../trust/config.js";
import { bytesToHex, isHex64 } from "../util/bytes.js";
import { renderCllNote } from "../witness/cll-note.js";
import {
  findEquivocations,
  findRegistrationForks,
  type CrossInputFindings,
  type InputCheckpoints,
} from "../witness/equivocation.js";
import type { Evidence } from "../input/load.js";
import {
  fileLinesFor,
  parseContinuityEvidence,
  parseCosignatureFile,
  type CarriedLine,
  type CosignatureFile,
  type UnsupportedEntry,
} from "../witness/evidence.js";
import {
  StatementPool,
  fileStatements,
  pinnedWitnessKeys,
  statementsOf,
  type WitnessEquivocation,
  type WitnessStatement,
} from "../witness/pool.js";
import { parseRfc3339 } from "../witness/time.js";
import { FORM_A_IDS, formAChecks, type ChainOutcome } from "./continuity-form-a.js";
import { checksFor, decide } from "./shared/checks.js";
import { EvidenceContext } from "./shared/context.js";
import { stampedHeads } from "./external-registration.js";
import { manifestCheckpoint } from "./shared/manifest-checkpoint.js";
import type { Check, PropertyResult } from "./shared/types.js";
import { findNarrowing } from "./shared/widening.js";
import { priorKeyWindow, successionCheck } from "../keys/continuity-keys.js";

export const CHECKS = checksFor([
  "prior.checkpoint",
  "chain.link",
  "chain.key",
  "key.window",
  "cosignature.evidence",
  "cosignature.type",
  ...FORM_A_IDS,
  "witness.assertion",
  "equivocation.crossInput",
] as const);
const { check, only } = CHECKS;

const NO_ASSERTION =
  "no continuity witness cosignature is carried (no continuityEvidence, no --cosignatures lines for this checkpoint)";
const EVIDENCE_PATH = "continuityEvidence";

function present(v: JsonValue | undefined): v is JsonValue {
  return v !== undefined && v !== null;
}

export function continuity(ctx: EvidenceContext): PropertyResult {
  const own = ofThisInput(ctx);
  return ctx.options.crossInput ? withCrossInput(own, ctx.options.crossInput) : own;
}

/**
 * What one input shows of its logs, for comparison with the other inputs (undefined: nothing to
 * show): its checkpoints, and its witness lines that verify under the trust file's keys.
 */
export function sightingOf(source: string, evidence: Evidence, trust?: TrustConfig): InputCheckpoints | undefined {
  const primary = evidence.bundles[0];
  if (!primary) return undefined;
  const base = inputCheckpoints(source, primary.bundle, primary.carrier === "data" || primary.carrier === "inline");
  const cosigned = (trust?.witnesses.length ?? 0) > 0 ? cosignedIn(base, primary.bundle, trust) : [];
  const stamped =
    (trust?.transparencyServices.size ?? 0) > 0 ? stampedHeads(new EvidenceContext(evidence, trust, {})) : [];
  return { ...base, ...(cosigned.length > 0 ? { cosigned } : {}), ...(stamped.length > 0 ? { stamped } : {}) };
}

/** The bundle's lines over its own (signed) checkpoints' notes that verify under pinned keys. */
function cosignedIn(base: InputCheckpoints, bundle: JsonObject, trust: TrustConfig | undefined): WitnessStatement[] {
  const raw = member(bundle, EVIDENCE_PATH);
  const carried = present(raw) ? parseContinuityEvidence(raw, EVIDENCE_PATH) : undefined;
  if (!carried?.ok) return [];
  const pinned = pinnedWitnessKeys(trust?.witnesses);
  return (["current", "prior"] as const).flatMap((role) => {
    const cp = base[role];
    const note = cp ? renderCllNote(cp) : undefined;
    if (!note?.ok) return [];
    const lines = carried.value.lines
      .filter((l) => l.role === role)
      .map((l) => ({ line: l.line, where: `${l.path} in ${base.source}` }));
    return statementsOf(note.value.text, lines, pinned);
  });
}

/**
 * Every input's findings from comparing their checkpoints (and a --checkpoints list), their
 * witnesses' lines (with the --cosignatures file's, `fileLines`) and their stamps, in input order;
 * undefined when fewer than two sightings leave nothing to compare.
 */
export function crossInputFindings(
  sightings: readonly (InputCheckpoints | undefined)[],
  seen: readonly Checkpoint[],
  trust: TrustConfig | undefined,
  fileLines: readonly WitnessStatement[] = [],
): (CrossInputFindings | undefined)[] | undefined {
  const present: InputCheckpoints[] = [];
  const indexes: number[] = [];
  sightings.forEach((s, k) => {
    if (s === undefined) return;
    indexes.push(k);
    present.push(s);
  });
  if (present.length + seen.length < 2) return undefined;
  const findings = findEquivocations(present, seen, producerIdentities(trust));
  const pool = new StatementPool().add(fileLines);
  for (const s of present) pool.add(s.cosigned ?? []);
  const witnesses = pool.equivocations();
  const registration = findRegistrationForks(present);
  const out: (CrossInputFindings | undefined)[] = sightings.map(() => undefined);
  indexes.forEach((k, j) => {
    const forks = registration[j] ?? [];
    out[k] = {
      ...(findings[j] as CrossInputFindings),
      ...(witnesses.length > 0 ? { witnesses } : {}),
      ...(forks.length > 0 ? { registration: forks } : {}),
    };
  });
  return out;
}

function ofThisInput(ctx: EvidenceContext): PropertyResult {
  const cp = manifestCheckpoint(ctx)?.result;
  // A checkpoint is only found inside a manifest, so with one the manifest is there too.
  const manifest = ctx.manifest;
  if (cp === undefined || manifest === undefined)
    return only("witness.assertion", "NOT_PRESENT", `${NO_ASSERTION}; the bundle carries no checkpoint`);
  const gate = cp.ok
    ? chainGate(cp.value, member(manifest, "priorCheckpoint"), member(manifest, "consistencyProof"))
    : undefined;
  const checks: Check[] = gate
    ? [...gate.checks]
    : [check("chain.link", "NOT_CHECKED", "the checkpoint is malformed (reported under checkpointSignature)")];

  const carried = carriedEvidence(ctx, cp.ok ? cp.value : undefined, gate?.prior ?? null);
  const priorWindow =
    cp.ok && gate?.prior
      ? priorKeyWindow(ctx, {
          current: cp.value,
          prior: gate.prior,
          lines: carried.lines,
          otherRoles: otherRoleKeys(ctx, cp.value, gate.prior),
        })
      : undefined;
  if (priorWindow) checks.push(priorWindow);
  if (carried.lines.length === 0 && carried.unsupported.length === 0 && carried.problems.length === 0) {
    // Nothing a witness said: the chain can still FAIL, and a fork seen across inputs does too.
    checks.push(
      check(
        "witness.assertion",
        "NOT_PRESENT",
        carried.otherNotes > 0
          ? `${NO_ASSERTION}; ${carried.otherNotes} --cosignatures entr(ies) cosign other checkpoints`
          : NO_ASSERTION,
      ),
    );
    const failed = checks.find((c) => c.state === "FAIL");
    if (failed) return { state: "FAIL", detail: failed.detail, checks };
    const link = checks.find((c) => c.id === "chain.link" && c.state === "PASS");
    return { state: "NOT_PRESENT", detail: link ? `${NO_ASSERTION}; ${link.detail}` : NO_ASSERTION, checks };
  }

  if (gate !== undefined && gate.prior !== null && gate.outcome === "chained" && cp.ok)
    checks.push(successionCheck(ctx, cp.value, gate.prior) ?? keyCheck(cp.value, gate.prior));
  checks.push(...carried.problems);
  if (carried.problems.length === 0) {
    checks.push(
      check(
        "cosignature.evidence",
        "PASS",
        `${carried.lines.length} cosignature line(s): ${carried.fromBundle} in continuityEvidence, ${carried.lines.length - carried.fromBundle} from --cosignatures`,
      ),
    );
  }
  if (carried.unsupported.length > 0) {
    const list = carried.unsupported.slice(0, 20).map((u) => `${u.path} ${JSON.stringify(u.type)}`);
    checks.push(
      check(
        "cosignature.type",
        "NOT_CHECKED",
        `${carried.unsupported.length} entr(ies) of a type this verifier does not implement, ignored: ${list.join(", ")}${carried.unsupported.length > 20 ? ` and ${carried.unsupported.length - 20} more` : ""}`,
      ),
    );
  }
  if (!cp.ok || gate === undefined) {
    checks.push(
      check(
        "cosignature.note",
        "NOT_CHECKED",
        "the checkpoint is malformed: no note can be rendered for its cosignatures",
      ),
    );
    return neverPass(checks);
  }
  const witnesses = ctx.trust?.witnesses;
  checks.push(
    ...formAChecks({
      current: cp.value,
      prior: gate.prior,
      chain: gate.outcome,
      lines: carried.lines,
      witnesses,
      policy: ctx.trust?.continuityPolicy ?? DEFAULT_CONTINUITY_POLICY,
      otherRoles: otherRoleKeys(ctx, cp.value, gate.prior),
      at: ctx.options.at === undefined ? undefined : parseRfc3339(ctx.options.at),
      equivocations: (own) => runEquivocations(ctx, own),
    }),
  );
  return decide(checks, () => checks.find((c) => c.id === "witness.quorum")?.detail ?? "");
}

/**
 * continuity with this input's findings from comparing every input's checkpoints (and a
 * --checkpoints list) appended: a fork FAILs the property; anything else is reported and leaves
 * its state as it was — agreeing with other inputs proves nothing a witness did not.
 */
export function withCrossInput(result: PropertyResult, findings: CrossInputFindings): PropertyResult {
  const c = crossInputCheck(findings);
  const checks = [...result.checks, c];
  if (c.state !== "FAIL") return { ...result, checks };
  return { state: "FAIL", detail: result.state === "FAIL" ? result.detail : c.detail, checks };
}

/** The `equivocation.crossInput` check for one input's findings. */
export function crossInputCheck(f: CrossInputFindings): Check {
  const id = "equivocation.crossInput";
  const first = f.forks[0];
  if (first !== undefined) {
    const more = f.forks.length > 1 ? ` (and ${f.forks.length - 1} more size(s))` : "";
    return check(
      id,
      "FAIL",
      `the log forked: log ${JSON.stringify(first.logId)} at mmr_size ${first.mmrSize} has root ${first.root} (${first.statedBy}) and root ${first.otherRoot} (${first.otherStatedBy}), both signed by its producer${more}`,
      {
        code: "EQUIVOCATION_FORK",
        values: { logId: first.logId, mmrSize: String(first.mmrSize), root: first.root, otherRoot: first.otherRoot },
      },
    );
  }
  if (f.compared === 0)
    return check(
      id,
      "NOT_PRESENT",
      "no other input or --checkpoints entry states a checkpoint of this log: nothing to compare",
    );
  const stale = f.stale !== undefined ? `; stale, not a fork: ${f.stale}` : "";
  return check(
    id,
    "PASS",
    `no fork: ${f.compared} statement(s) of this log from other inputs or --checkpoints agree at every size both state${stale}`,
  );
}

/**
 * The checkpoints one input's primary bundle carries, as the comparison reads them: each parsed
 * as presented, or — from a protobuf carrier that may have widened its integers — under a
 * narrowing its producer's signature verifies for.
 */
export function inputCheckpoints(source: string, bundle: JsonObject, structuredCarrier: boolean): InputCheckpoints {
  const read = (name: "cllCheckpoint" | "priorCheckpoint"): Checkpoint | undefined => {
    const presented = memberAt(bundle, "manifest", name);
    if (!isJsonObject(presented)) return undefined;
    const path = `manifest.${name}`;
    const signed = (v: JsonValue) => {
      const r = parseCheckpoint(v, path);
      return r.ok && verifyCheckpointSignature(r.value).ok ? r.value : undefined;
    };
    const asPresented = signed(presented);
    if (asPresented !== undefined || !structuredCarrier) return asPresented;
    const n = findNarrowing(presented, (candidate) => signed(candidate) !== undefined);
    return n.kind === "match" ? signed(n.value) : undefined;
  };
  const current = read("cllCheckpoint");
  const prior = read("priorCheckpoint");
  return { source, ...(current ? { current: detached(current) } : {}), ...(prior ? { prior: detached(prior) } : {}) };
}

/**
 * What a sighting keeps of a checkpoint: its signed statement, copied out of the input. A run
 * holds every input's sighting until all are compared, and a string or byte view taken from the
 * input (or its witness records) would keep the whole input alive with it.
 */
function detached(cp: Checkpoint): Checkpoint {
  return {
    logId: Buffer.from(cp.logId, "utf8").toString("utf8"),
    mmrSize: cp.mmrSize,
    root: cp.root.slice(),
    prevSize: cp.prevSize,
    prevRoot: cp.prevRoot === null ? null : cp.prevRoot.slice(),
    keyId: cp.keyId.slice(),
    timestamp: "",
    signature: cp.signature.slice(),
    witnesses: undefined,
    consistencyProof: undefined,
    json: {},
    path: cp.path,
    signingBody: "",
    digest: cp.digest.slice(),
    digestHex: Buffer.from(cp.digestHex, "latin1").toString("latin1"),
  };
}

/** The property's state without a quorum check: nothing here can make it PASS. */
function neverPass(checks: Check[]): PropertyResult {
  const state = checks.some((c) => c.state === "FAIL")
    ? "FAIL"
    : checks.some((c) => c.state === "INCONCLUSIVE")
      ? "INCONCLUSIVE"
      : "NOT_CHECKED";
  const deciding = checks.find((c) => c.state === state);
  return { state, detail: deciding?.detail ?? "", checks };
}

interface ChainGate {
  readonly checks: Check[];
  readonly prior: Checkpoint | null;
  readonly outcome: ChainOutcome;
}

function chainGate(
  current: Checkpoint,
  priorValue: JsonValue | undefined,
  proofValue: JsonValue | undefined,
): ChainGate {
  let prior: Checkpoint | null = null;
  if (present(priorValue)) {
    const p = parseCheckpoint(priorValue, "manifest.priorCheckpoint");
    if (!p.ok) {
      return {
        checks: [
          check(
            "prior.checkpoint",
            "FAIL",
            `the prior checkpoint is malformed: ${p.detail}${p.path ? ` at ${p.path}` : ""}`,
            { code: p.code },
          ),
        ],
        prior: null,
        outcome: "broken",
      };
    }
    prior = p.value;
  }
  let proof: ConsistencyProof | null = null;
  if (present(proofValue)) {
    const p = parseConsistencyProof(proofValue, "manifest.consistencyProof");
    if (!p.ok) {
      return {
        checks: [
          check(
            "prior.checkpoint",
            "FAIL",
            `the consistency proof is malformed: ${p.detail}${p.path ? ` at ${p.path}` : ""}`,
            { code: p.code },
          ),
        ],
        prior,
        outcome: "broken",
      };
    }
    proof = p.value;
  }
  const checks: Check[] = [];
  if (prior)
    checks.push(
      check(
        "prior.checkpoint",
        "PASS",
        `prior checkpoint at mmr_size ${prior.mmrSize} and its consistency proof are well-formed`,
      ),
    );
  const r = verifyCheckpointChain(prior, current, proof);
  if (r.ok) {
    const v = r.value;
    checks.push(
      v.link === "first"
        ? check("chain.link", "PASS", `first checkpoint of its log (prev_size 0, no prior): nothing to chain`, {
            values: { root: v.root },
          })
        : check(
            "chain.link",
            "PASS",
            `history intact between checkpoints at mmr_size ${v.priorSize} and ${v.mmrSize} (anti-rewrite only, not anti-fork)`,
            {
              values: { priorRoot: v.priorRoot, root: v.root, logId: v.logId },
            },
          ),
    );
    return { checks, prior, outcome: v.link === "first" ? "genesis" : "chained" };
  }
  if (r.code === "CHAIN_PRIOR_MISSING") {
    // Not a contradiction: the bundle simply does not carry the predecessor it chains to.
    checks.push(
      check("chain.link", "NOT_PRESENT", `${r.detail}: the chain to the prior checkpoint cannot be checked`, {
        code: r.code,
      }),
    );
    return { checks, prior, outcome: "prior-missing" };
  }
  checks.push(check("chain.link", "FAIL", `the checkpoint chain is broken: ${r.detail}`, { code: r.code }));
  return { checks, prior, outcome: "broken" };
}

/** §4.1 step 3: a witness vouches for notes, which name no key; a key change between them is unproven. */
function keyCheck(current: Checkpoint, prior: Checkpoint): Check {
  const values = { priorKey: bytesToHex(prior.keyId), key: bytesToHex(current.keyId) };
  if (values.priorKey === values.key)
    return check("chain.key", "PASS", "the prior and current checkpoints are signed by the same key", { values });
  return check(
    "chain.key",
    "INCONCLUSIVE",
    `the prior checkpoint is signed by ${values.priorKey}, this one by ${values.key}: a key rotation cannot be proven offline`,
    {
      code: "CONTINUITY_KEY_ROTATION",
      values,
    },
  );
}

export interface Carried {
  readonly lines: CarriedLine[];
  readonly fromBundle: number;
  readonly unsupported: UnsupportedEntry[];
  /** FAIL or INCONCLUSIVE checks about the carriers themselves. */
  readonly problems: Check[];
  readonly otherNotes: number;
}

/** The bundle's lines, and the --cosignatures file's lines whose note is this input's (also read by `inspect`). */
export function carriedEvidence(
  ctx: EvidenceContext,
  current: Checkpoint | undefined,
  prior: Checkpoint | null,
): Carried {
  const out: Carried = { lines: [], fromBundle: 0, unsupported: [], problems: [], otherNotes: 0 };
  const raw = member(ctx.bundle, EVIDENCE_PATH);
  let fromBundle = 0;
  if (present(raw) && !(Array.isArray(raw) && raw.length === 0)) {
    const r = parseContinuityEvidence(raw, EVIDENCE_PATH);
    if (!r.ok) {
      out.problems.push(
        check(
          "cosignature.evidence",
          "FAIL",
          `continuityEvidence is malformed: ${r.detail}${r.path ? ` at ${r.path}` : ""}`,
          { subject: EVIDENCE_PATH, code: r.code },
        ),
      );
    } else {
      out.lines.push(...r.value.lines);
      out.unsupported.push(...r.value.unsupported);
      fromBundle = r.value.lines.length;
    }
  }
  let otherNotes = 0;
  const file = cosignatureFile(ctx);
  if (file !== undefined) {
    if (!file.ok) {
      out.problems.push(
        check(
          "cosignature.evidence",
          "INCONCLUSIVE",
          `the --cosignatures content cannot be used: ${file.detail}${file.path ? ` at ${file.path}` : ""}`,
          { subject: "--cosignatures", code: file.code },
        ),
      );
    } else {
      const note = (cp: Checkpoint | null | undefined) => {
        const n = cp ? renderCllNote(cp) : undefined;
        return n?.ok ? n.value.text : undefined;
      };
      const matched = fileLinesFor(file.value, { current: note(current), prior: note(prior) });
      out.lines.push(...matched.lines);
      otherNotes = matched.otherNotes;
      // Entries of an unknown type in the file may be about any input; they are reported only
      // where something of this input's is there too.
      if (matched.lines.length > 0) out.unsupported.push(...file.value.unsupported);
    }
  }
  return { ...out, fromBundle, otherNotes };
}

/**
 * The witness keys that equivocated in the run (contract §9.40): within the --cosignatures file,
 * between it and this input's verified lines, and across inputs as the comparison found.
 */
function runEquivocations(ctx: EvidenceContext, own: readonly WitnessStatement[]): Map<string, WitnessEquivocation> {
  const pool =
    ctx.options.cosignaturePool?.() ??
    ctx.once("cosignaturePool", () => {
      const file = cosignatureFile(ctx);
      const pinned = pinnedWitnessKeys(ctx.trust?.witnesses);
      return new StatementPool().add(file?.ok ? fileStatements(file.value, pinned) : []);
    });
  const found = pool.with(own);
  for (const e of ctx.options.crossInput?.witnesses ?? []) if (!found.has(e.key)) found.set(e.key, e);
  return found;
}

function cosignatureFile(ctx: EvidenceContext): Result<CosignatureFile> | undefined {
  const given = ctx.options.cosignatures;
  if (given === undefined) return undefined;
  return ctx.once("cosignatureFile", () => {
    let value: JsonValue;
    if (typeof given === "string" || given instanceof Uint8Array) {
      const parsed = parseStrictJson(given);
      if (!parsed.ok)
        return fail(
          "COSIGNATURE_EVIDENCE_MALFORMED",
          `not strict JSON: ${parsed.detail} (${parsed.code})`,
          parsed.path,
        );
      value = parsed.value;
    } else {
      value = given;
    }
    return parseCosignatureFile(value);
  });
}

/** Contract §9.19: keys in any other role, so a witness holding one is producer-operated. */
export function otherRoleKeys(
  ctx: EvidenceContext,
  current: Checkpoint,
  prior: Checkpoint | null,
): Map<string, string> {
  const roles = new Map<string, string>();
  const add = (hex: string | undefined, role: string) => {
    if (hex !== undefined && !roles.has(hex)) roles.set(hex, role);
  };
  add(bytesToHex(current.keyId), "the checkpoint's key_id");
  if (prior) add(bytesToHex(prior.keyId), "the prior checkpoint's key_id");
  const capsuleKey = ctx.capsule ? member(ctx.capsule, "key_id") : undefined;
  if (isHex64(capsuleKey)) add(capsuleKey, "the capsule's key_id");
  for (const [authority, keys] of ctx.trust?.producers ?? [])
    for (const k of keys) add(k.key.ed25519Hex, `a producer key for ${authority} in the trust file`);
  for (const [url, service] of ctx.trust?.transparencyServices ?? [])
    for (const k of service.keys) add(k.key.ed25519Hex, `the key of Transparency Service ${url}`);
  // Contract §9.31: a key that signs an agent's card is that agent's.
  for (const [card, agent] of ctx.trust?.agents ?? [])
    for (const k of agent.keys)
      if (k.type === "Ed25519") add(k.fingerprint, `an Agent Card signing key for ${card} in the trust file`);
  return roles;
}

/**
 * The producer identity of a checkpoint key under a trust file: keys pinned for one authority (or
 * for authorities that share a key) are one producer; any other key is its own.
 */
export function producerIdentities(trust: TrustConfig | undefined): (keyIdHex: string) => string {
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    let root = x;
    while (parent.has(root) && parent.get(root) !== root) root = parent.get(root) as string;
    return root;
  };
  for (const [authority, keys] of trust?.producers ?? []) {
    const node = `authority ${authority}`;
    if (!parent.has(node)) parent.set(node, node);
    for (const k of keys) {
      const hex = k.key.ed25519Hex;
      if (hex === undefined) continue;
      const a = find(node);
      const b = parent.has(hex) ? find(hex) : hex;
      if (!parent.has(hex)) parent.set(hex, hex);
      if (a !== b) parent.set(b, a);
    }
  }
  return (keyIdHex) => (parent.has(keyIdHex) ? find(keyIdHex) : keyIdHex);
}
