/**
 * continuity — independent, checkpoint-aware witnesses vouched for the history between the prior
 * checkpoint and this one (contract §4, §9.22; log-and-receipts.md §4.4, §6;
 * continuity-witness.md §4.1 the chain gate, §4.2 form A).
 *
 * The chain gate (chain.ts), which decides FAIL independently of any witness:
 *   prior.checkpoint       manifest.priorCheckpoint (and consistencyProof) are well-formed
 *   chain.link             prior signature, same log_id, prev_size == prior.mmr_size,
 *                          prev_root == prior.root, growth, and the MMR consistency proof from the
 *                          prior root to this one; or, with no prior, the first-checkpoint rules
 *   chain.key              (with cosignatures) prior and current signed by one key: a rotation
 *                          cannot be proven offline, so INCONCLUSIVE
 * The witnesses, C2SP cosignature/v1 lines from `continuityEvidence` or `--cosignatures`:
 *   cosignature.evidence   the carriers are well-formed
 *   cosignature.type       entries of a type this verifier does not implement: reported, ignored
 *   cosignature.*, witness.*  form A (form-a.ts): each line under a pinned witness key
 *                          verifies over the note rendered from the checkpoint; a quorum of
 *                          distinct independent operators counted
 *   witness.assertion      NOT_PRESENT when no cosignature is carried
 * And, when the caller compared inputs (several inputs, or --checkpoints; cross-input.ts):
 *   equivocation.crossInput  no other checkpoint of this log gives another root at a size this
 *                          input states (src/witness/equivocation.ts)
 *
 * PASS needs the chain verified and the quorum met. A consistency proof alone is anti-rewrite
 * between two checkpoints the producer signed; only witnesses that keep per-log state and refuse
 * to cosign a fork make a split view visible — and only to relying parties that check them.
 */
import { member } from "../../json/value.js";
import { DEFAULT_CONTINUITY_POLICY } from "../../trust/config.js";
import { parseRfc3339 } from "../../witness/time.js";
import { callerAt } from "../../keys/service-window.js";
import { formAChecks } from "./form-a.js";
import { decide } from "../shared/checks.js";
import type { EvidenceContext } from "../../evidence/context.js";
import { manifestCheckpoint } from "../../evidence/manifest-checkpoint.js";
import { carriedOf, type Carried } from "../../evidence/cosignatures.js";
import { otherRoleKeys } from "../../evidence/operator.js";
import { runEquivocations, witnessLines } from "../../evidence/witness-lines.js";
import type { Check, PropertyResult } from "../shared/types.js";
import { CHECKS, check, only } from "./checks.js";
import { chainGate, keyCheck } from "./chain.js";
import { withCrossInput } from "./cross-input.js";
import { priorKeyWindow, successionCheck } from "../../keys/continuity-keys.js";

export { CHECKS };

const NO_ASSERTION =
  "no continuity witness cosignature is carried (no continuityEvidence, no --cosignatures lines for this checkpoint)";

export function continuity(ctx: EvidenceContext): PropertyResult {
  const own = ofThisInput(ctx);
  return ctx.options.crossInput ? withCrossInput(own, ctx.options.crossInput) : own;
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

  // The lines of this checkpoint and of the prior one the gate read (src/evidence/cosignatures.ts).
  const carried = carriedOf(ctx);
  const priorWindow = cp.ok && gate?.prior ? priorKeyWindow(ctx, gate.prior) : undefined;
  if (priorWindow) checks.push(priorWindow);
  if (carried.lines.length === 0 && carried.unsupported.length === 0 && carried.problems.length === 0)
    return nothingCarried(checks, carried.otherNotes);

  if (gate !== undefined && gate.prior !== null && gate.outcome === "chained" && cp.ok)
    checks.push(successionCheck(ctx, cp.value, gate.prior) ?? keyCheck(cp.value, gate.prior));
  checks.push(...carrierChecks(carried));
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
  const callerTime = callerAt(ctx.options);
  checks.push(
    ...formAChecks({
      current: cp.value,
      prior: gate.prior,
      chain: gate.outcome,
      lines: witnessLines(ctx),
      witnesses,
      trust: ctx.trust,
      policy: ctx.trust?.continuityPolicy ?? DEFAULT_CONTINUITY_POLICY,
      otherRoles: otherRoleKeys(ctx),
      at: ctx.options.at === undefined ? undefined : parseRfc3339(ctx.options.at),
      ...(callerTime !== undefined ? { callerTime } : {}),
      equivocations: runEquivocations(ctx),
    }),
  );
  return decide(checks, () => checks.find((c) => c.id === "witness.quorum")?.detail ?? "");
}

/** Nothing a witness said: the chain can still FAIL, and a fork seen across inputs does too. */
function nothingCarried(checks: Check[], otherNotes: number): PropertyResult {
  checks.push(
    check(
      "witness.assertion",
      "NOT_PRESENT",
      otherNotes > 0
        ? `${NO_ASSERTION}; ${otherNotes} --cosignatures entr(ies) cosign other checkpoints`
        : NO_ASSERTION,
    ),
  );
  const failed = checks.find((c) => c.state === "FAIL");
  if (failed) return { state: "FAIL", detail: failed.detail, checks };
  // A prior checkpoint's key that cannot be shown in its window (key.window) leaves the chain unproven.
  const unproven = checks.find((c) => c.state === "INCONCLUSIVE");
  if (unproven) return { state: "INCONCLUSIVE", detail: unproven.detail, checks };
  const link = checks.find((c) => c.id === "chain.link" && c.state === "PASS");
  return { state: "NOT_PRESENT", detail: link ? `${NO_ASSERTION}; ${link.detail}` : NO_ASSERTION, checks };
}

/** The carriers themselves: well-formed, and entries of a type this verifier does not implement. */
function carrierChecks(carried: Carried): Check[] {
  const checks = carried.problems.map((p) =>
    check("cosignature.evidence", p.state, p.detail, { subject: p.subject, code: p.code }),
  );
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
  return checks;
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
