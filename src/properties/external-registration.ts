/**
 * externalRegistration — a configured Transparency Service registered this checkpoint (contract
 * §4, §9.7; log-and-receipts.md §5).
 *
 * Per witness record (subject: `witnesses[i] <ts_url>`):
 *   witness.entryHash      entry_hash recomputed from the checkpoint (SHA-256 of its raw digest)
 *                          equals the record's: otherwise the stamp is not about this checkpoint
 *   witness.receipt        strict base64 and COSE decode, vds from the protected header, the
 *                          inclusion path folds to a root; exactly one inclusion proof
 *   witness.treePosition   the receipt's (tree_size, leaf_index) equal the record's
 *   witness.signature      the receipt verifies under a key the trust file pins for that exact
 *                          ts_url. A service the trust file does not list does not count
 *                          (NOT_CHECKED); a failure under a pinned key is a forgery (FAIL) and is
 *                          never outvoted by another stamp.
 *   witness.stub           stub records never count
 * Then:
 *   registration.consistent  stamps of one service verified for one tree size fold to one root: a
 *                          log has one root per size, so two roots are the service's signed proof
 *                          that it forked its log (shown only where two such stamps exist); and,
 *                          when inputs are compared, a stamp of this input whose service signed
 *                          another root for the same tree size in another input FAILs (§9.32)
 *   registration.verified  at least one stamp verified under a pinned key; otherwise INCONCLUSIVE;
 *                          NOT_PRESENT when every record is a stub (a stub is no registration, §9.11)
 * The service is labelled independent or producer-operated (the `operator` field of
 * witness.signature): from the trust file, unless its key is also a producer key, the capsule's
 * key or the checkpoint's key, which makes it producer-operated whatever the file says (§9.19). A
 * receipt proves inclusion in that service's log, not time and not independence.
 */
import { showValue, valueText } from "../json/diff.js";
import { memberAt, isJsonObject, member, asSafeInteger, type JsonObject, type JsonValue } from "../json/value.js";
import { joinPath } from "../json/path.js";
import { bytesToHex, hexToBytes } from "../util/bytes.js";
import { checkpointEntryHash, type Checkpoint } from "../log/checkpoint.js";
import { checkReceipt, verifyReceiptSignature, type CheckedReceipt } from "../log/receipt.js";
import type { TrustedService } from "../trust/config.js";
import { shared, type RegistrationFork, type StampedHead } from "../witness/equivocation.js";
import { judgeOperator, operatorText, type OperatorJudgement } from "../evidence/operator.js";
import { isStubWith, receiptBytes } from "../evidence/receipts.js";
import type { Check, PropertyResult } from "./shared/types.js";
import { checksFor, decide } from "./shared/checks.js";
import type { EvidenceContext } from "../evidence/context.js";
import { CHECKPOINT_PATH, manifestCheckpoint } from "../evidence/manifest-checkpoint.js";
import { serviceKeyWindow } from "../keys/service-window.js";

export const CHECKS = checksFor([
  "witness.entryHash",
  "witness.receipt",
  "witness.treePosition",
  "witness.signature",
  "witness.stub",
  "key.window",
  "registration.consistent",
  "registration.verified",
]);
const { check, only } = CHECKS;

export function externalRegistration(ctx: EvidenceContext): PropertyResult {
  const parsed = manifestCheckpoint(ctx);
  const cp = parsed?.result;
  if (cp === undefined) return only("registration.verified", "NOT_PRESENT", "the bundle carries no checkpoint");
  const cpJson = ctx.manifest ? member(ctx.manifest, "cllCheckpoint") : undefined;
  const raw = memberAt(cpJson, "witnesses");
  if (raw === undefined || raw === null || (Array.isArray(raw) && raw.length === 0)) {
    return only("registration.verified", "NOT_PRESENT", "the checkpoint carries no witness stamps");
  }
  if (!cp.ok) {
    return only(
      "witness.entryHash",
      "FAIL",
      `the checkpoint is malformed, so no stamp can be bound to it: ${cp.detail}${cp.path ? ` at ${cp.path}` : ""}`,
      { code: cp.code },
    );
  }
  const records = cp.value.witnesses ?? [];
  const checks: Check[] = [];
  const verified: string[] = [];
  const heads: TreeHead[] = [];
  let counted = 0;
  stampsOf(ctx, cp.value, parsed?.narrowed === true).forEach((r, i) => {
    const path = joinPath(CHECKPOINT_PATH, "witnesses", i);
    checks.push(...r.checks);
    if (r.counted) counted++;
    if (r.verifiedBy) verified.push(r.verifiedBy);
    if (r.head) heads.push({ ...r.head, path });
  });
  checks.push(...consistencyChecks(heads), ...(ctx.options.crossInput?.registration?.map(crossInputForkCheck) ?? []));
  if (counted === 0) {
    checks.push(
      check(
        "registration.verified",
        "NOT_PRESENT",
        `the checkpoint carries only stub stamps (${records.length}): no registration`,
      ),
    );
    return decide(checks, "");
  }
  checks.push(
    verified.length > 0
      ? check(
          "registration.verified",
          "PASS",
          `${verified.length} of ${records.length} stamp(s) verified under pinned keys`,
        )
      : check(
          "registration.verified",
          "INCONCLUSIVE",
          ctx.trust
            ? `no stamp verified under a key the trust file pins for its service (${counted} non-stub stamp(s) carried)`
            : "no trust file: no Transparency Service key is pinned, so no stamp can be verified",
        ),
  );
  return decide(checks, () => verified.map((v) => `${v}: witnessed`).join("; "));
}

interface StampResult {
  readonly checks: readonly Check[];
  /** A non-stub stamp (whether or not it verified). */
  readonly counted: boolean;
  /** "url (operator label)" when the stamp verified under a pinned key. */
  readonly verifiedBy?: string;
  /** The tree head a verified stamp's service signed, when its proof states the tree size. */
  readonly head?: { readonly url: string; readonly treeSize: number; readonly root: string };
}

interface TreeHead {
  readonly url: string;
  readonly treeSize: number;
  readonly root: string;
  readonly path: string;
}

/**
 * One check per service and tree size that two or more verified stamps share: a log of a given
 * size has one root, so stamps that fold to two are the service's own signed proof of a fork.
 * Grouped by key in one pass, whatever the number of stamps.
 */
function consistencyChecks(heads: readonly TreeHead[]): Check[] {
  const groups = new Map<string, TreeHead[]>();
  for (const h of heads) {
    const key = `${h.treeSize} ${h.url}`;
    const group = groups.get(key);
    if (group) group.push(h);
    else groups.set(key, [h]);
  }
  const out: Check[] = [];
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const first = group[0] as TreeHead;
    const other = group.find((h) => h.root !== first.root);
    const subject = `${CHECKPOINT_PATH}.witnesses ${first.url}`;
    out.push(
      other
        ? check(
            "registration.consistent",
            "FAIL",
            `the service signed two roots for tree size ${first.treeSize}: ${first.root} (${first.path}) and ${other.root} (${other.path}); a log has one root per size, so the service forked its log`,
            { subject, values: { [first.path]: first.root, [other.path]: other.root } },
          )
        : check(
            "registration.consistent",
            "PASS",
            `${group.length} stamps of tree size ${first.treeSize} fold to one root ${first.root}`,
            { subject },
          ),
    );
  }
  return out;
}

/** A stamp whose service signed another root for its tree size in another input (contract §9.32). */
function crossInputForkCheck(f: RegistrationFork): Check {
  return check(
    "registration.consistent",
    "FAIL",
    `the service signed two roots for tree size ${f.treeSize}: ${f.root} (${f.where}) and ${f.otherRoot} (${f.otherWhere}); a log has one root per size, so the service forked its log`,
    {
      subject: `${CHECKPOINT_PATH}.witnesses ${f.url}`,
      code: "REGISTRATION_FORK",
      values: { treeSize: String(f.treeSize), root: f.root, otherRoot: f.otherRoot, otherStamp: f.otherWhere },
    },
  );
}

/**
 * A result the property gave without findings, with this input's forks across inputs inserted
 * where the property itself lists them (before `registration.verified`, its last check).
 */
export function withRegistrationForks(result: PropertyResult, forks: readonly RegistrationFork[]): PropertyResult {
  const checks = [...result.checks];
  checks.splice(Math.max(0, checks.length - 1), 0, ...forks.map(crossInputForkCheck));
  return decide(checks, result.detail);
}

/**
 * The tree heads this input's stamps show, each verified under a key the trust file pins for its
 * service: what the input says of the services' logs, for comparison with other inputs (§9.32).
 */
export function stampedHeads(ctx: EvidenceContext): StampedHead[] {
  const parsed = manifestCheckpoint(ctx);
  const cp = parsed?.result;
  if (!cp?.ok || (ctx.trust?.transparencyServices.size ?? 0) === 0) return [];
  return stampsOf(ctx, cp.value, parsed?.narrowed === true).flatMap((r, i) => {
    const where = joinPath(CHECKPOINT_PATH, "witnesses", i);
    const head = r.head;
    // Copied out of the input, and kept once for all the inputs that name them alike: a run holds
    // every input's sighting until all are compared.
    return head ? [{ url: shared(head.url), treeSize: head.treeSize, root: head.root, where: shared(where) }] : [];
  });
}

/**
 * Every witness record's stamp checks, in order: computed once per input, for the property and
 * for the sighting the comparison across inputs reads (receipts are decoded and verified once).
 */
function stampsOf(ctx: EvidenceContext, cp: Checkpoint, narrowed: boolean): readonly StampResult[] {
  return ctx.once("stamps", () => {
    const entryHash = checkpointEntryHash(cp);
    return (cp.witnesses ?? []).map((record, i) =>
      stampChecks(ctx, record, joinPath(CHECKPOINT_PATH, "witnesses", i), entryHash, narrowed),
    );
  });
}

function stampChecks(
  ctx: EvidenceContext,
  record: JsonValue,
  path: string,
  entryHash: string,
  reconstructed: boolean,
): StampResult {
  if (!isJsonObject(record))
    return {
      checks: [check("witness.receipt", "FAIL", "witness record is not an object", { subject: path })],
      counted: true,
    };
  const url = member(record, "ts_url");
  const subject = typeof url === "string" ? `${path} ${url}` : path;
  const receipt = receiptBytes(record);
  if (isStubWith(record, receipt)) {
    return {
      checks: [check("witness.stub", "NOT_PRESENT", "stub stamp (placeholder, no receipt): never counts", { subject })],
      counted: false,
    };
  }
  if (typeof url !== "string")
    return { checks: [check("witness.receipt", "FAIL", "ts_url is not a string", { subject })], counted: true };
  const checks: Check[] = [];
  const stated = member(record, "entry_hash");
  const values = { recomputed: entryHash, stated: valueText(stated) };
  if (stated !== entryHash) {
    checks.push(
      check(
        "witness.entryHash",
        "FAIL",
        `entry_hash ${showValue(stated)} != ${entryHash} recomputed from the checkpoint: the stamp is not bound to this checkpoint`,
        { subject, values },
      ),
    );
    return { checks, counted: true };
  }
  checks.push(
    reconstructed
      ? check(
          "witness.entryHash",
          "INCONCLUSIVE",
          `entry_hash ${entryHash} matches only the checkpoint with widened numbers written back as integers: the ${ctx.located.carrier} carrier passed numbers through doubles`,
          { subject, values },
        )
      : check("witness.entryHash", "PASS", `entry_hash ${entryHash} recomputed from the checkpoint`, {
          subject,
          values,
        }),
  );
  return receiptChecks(ctx, record, receipt, entryHash, { subject, url }, checks);
}

/** The stamp's receipt, once its entry hash is bound: decoded, folded to a root, placed and signed. */
function receiptChecks(
  ctx: EvidenceContext,
  record: JsonObject,
  receipt: Uint8Array | undefined,
  entryHash: string,
  { subject, url }: { readonly subject: string; readonly url: string },
  checks: Check[],
): StampResult {
  if (!receipt) {
    checks.push(check("witness.receipt", "FAIL", "receipt_b64 is not strict standard base64", { subject }));
    return { checks, counted: true };
  }
  const entry = hexToBytes(entryHash) as Uint8Array;
  const structure = checkReceipt(receipt, entry);
  if (!structure.ok) {
    checks.push(
      check(
        "witness.receipt",
        "FAIL",
        `the receipt does not decode and reconstruct: ${structure.detail}${structure.path ? ` at ${structure.path}` : ""}`,
        { subject, code: structure.code },
      ),
    );
    return { checks, counted: true };
  }
  const rv = structure.value;
  const root = bytesToHex(rv.root);
  if (rv.proofCount !== 1) {
    checks.push(
      check(
        "witness.receipt",
        "FAIL",
        `the receipt carries ${rv.proofCount} inclusion proofs; exactly one is expected`,
        { subject },
      ),
    );
    return { checks, counted: true };
  }
  checks.push(
    check("witness.receipt", "PASS", `COSE receipt (vds ${rv.vds}) folds to root ${root}`, {
      subject,
      values: { root },
    }),
  );
  checks.push(positionCheck(record, rv.treeSize, rv.leafIndex, subject));
  const service = ctx.trust?.transparencyServices.get(url);
  const operator = service ? judgeOperator(ctx, service.keys, service.operator) : undefined;
  const sig = signatureCheck(service, operator, rv, subject, url, ctx.trust !== undefined);
  checks.push(sig);
  const window =
    sig.state === "PASS" && service ? serviceKeyWindow(ctx.trust, service, rv, ctx.options, subject) : undefined;
  if (window) checks.push(window);
  const counts = sig.state === "PASS" && (window === undefined || window.state === "PASS");
  return {
    checks,
    counted: true,
    ...(counts && operator ? { verifiedBy: `${url} (${operatorText(operator)})` } : {}),
    ...(counts && rv.treeSize !== null ? { head: { url, treeSize: rv.treeSize, root } } : {}),
  };
}

function positionCheck(record: JsonObject, treeSize: number | null, leafIndex: number | null, subject: string): Check {
  const id = "witness.treePosition";
  const recTree = asSafeInteger(member(record, "tree_size"));
  const recLeaf = asSafeInteger(member(record, "leaf_index"));
  if (treeSize === null || leafIndex === null) {
    return check(id, "NOT_CHECKED", "the receipt's proof (CCF) carries no tree size or leaf index to compare", {
      subject,
    });
  }
  const values = { receipt: `${treeSize}/${leafIndex}`, record: `${String(recTree)}/${String(recLeaf)}` };
  if (recTree === treeSize && recLeaf === leafIndex) {
    return check(id, "PASS", `tree_size ${treeSize}, leaf_index ${leafIndex} agree with the record`, {
      subject,
      values,
    });
  }
  return check(
    id,
    "FAIL",
    `the receipt proves leaf ${leafIndex} of ${treeSize}, the record says leaf ${String(recLeaf)} of ${String(recTree)}`,
    { subject, values },
  );
}

function signatureCheck(
  service: TrustedService | undefined,
  operator: OperatorJudgement | undefined,
  receipt: CheckedReceipt,
  subject: string,
  url: string,
  haveTrust: boolean,
): Check {
  const id = "witness.signature";
  if (!service) {
    return check(
      id,
      "NOT_CHECKED",
      haveTrust
        ? `${url} is not a Transparency Service in the trust file: the stamp does not count`
        : "no trust file: no key is pinned for this service",
      { subject },
    );
  }
  let lastCode: ReturnType<typeof verifyReceiptSignature> | undefined;
  for (const k of service.keys) {
    const r = verifyReceiptSignature(receipt, k.key);
    if (r.ok) {
      return check(
        id,
        "PASS",
        `receipt signature verifies under the key pinned for ${url} (${operatorText(operator as OperatorJudgement)})`,
        {
          subject,
          values: { key: k.key.fingerprint },
          operator: (operator as OperatorJudgement).label,
        },
      );
    }
    lastCode = r;
  }
  return check(
    id,
    "FAIL",
    `receipt signature does not verify under any of the ${service.keys.length} key(s) pinned for ${url}: a forged or misattributed stamp`,
    {
      subject,
      ...(operator ? { operator: operator.label } : {}),
      ...(lastCode && !lastCode.ok ? { code: lastCode.code } : {}),
    },
  );
}
