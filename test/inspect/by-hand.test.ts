/**
 * What inspect prints is enough to redo every step by hand: from the explanation alone (with
 * --bytes), each digest, fold, root and signature is recomputed here with node:crypto and a few
 * lines of byte arithmetic — none of the project's hashing, CBOR or signature code — and must
 * give the value inspect printed, on every shipped vector and the published reference vector.
 * The lifecycle too: each transition's ten-element preimage is rebuilt from the values inspect
 * shows and the input's own JSON, each trace's pyjson from the trace in the input, and every
 * interim record — a capture's, an --interim file's, a pending Task's — is redone like the
 * terminal record, with its consistency chain and its comparisons with the terminal record.
 */
import { createHash, createPublicKey, verify as cryptoVerify } from "node:crypto";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { inspect, type Explanation } from "../../src/inspect/index.js";
import {
  isAbsent,
  type InterimRecordSection,
  type MmrFoldStep,
  type RecordDerivation,
} from "../../src/inspect/model.js";
import type { InputData } from "../../src/verify.js";
import { REPO_ROOT, externalPath, hasExternal } from "../helpers/external.js";
import { vectorInput } from "../helpers/vector-input.js";
import { changedLifecycleCases, lifecycleCases } from "./lifecycle-cases.js";

const sha = (...parts: (Uint8Array | string)[]) => {
  const h = createHash("sha256");
  for (const p of parts) h.update(typeof p === "string" ? Buffer.from(p, "hex") : p);
  return h.digest("hex");
};
const shaText = (s: string) => createHash("sha256").update(Buffer.from(s, "utf8")).digest("hex");
const be64 = (n: number) => n.toString(16).padStart(16, "0");
const bstr = (hex: string) => {
  const n = hex.length / 2;
  return `${n < 24 ? (0x40 + n).toString(16) : n < 256 ? `58${n.toString(16).padStart(2, "0")}` : `59${n.toString(16).padStart(4, "0")}`}${hex}`;
};
/** RFC 9052 §4.4 with an empty external_aad, built by hand. */
const sigStructure = (protectedHex: string, payloadHex: string) =>
  `846a${Buffer.from("Signature1").toString("hex")}${bstr(protectedHex)}40${bstr(payloadHex)}`;
const ed25519 = (rawHex: string, message: Buffer, signatureHex: string) =>
  cryptoVerify(
    null,
    message,
    createPublicKey({ key: Buffer.from(`302a300506032b6570032100${rawHex}`, "hex"), format: "der", type: "spki" }),
    Buffer.from(signatureHex, "hex"),
  );

/**
 * A receipt's signature under the key the trust file pins (raw Ed25519 hex, or PEM; a key object
 * with a window pins its `key`), by its protected alg.
 */
function pinnedVerify(
  entry: unknown,
  protectedHeader: readonly { label: string; value: string }[],
  message: Buffer,
  signatureHex: string,
): boolean {
  const pinned = typeof entry === "object" && entry !== null && "key" in entry ? entry.key : entry;
  const alg = protectedHeader.find((h) => h.label === "1")?.value ?? "";
  if (typeof pinned === "string" && /^[0-9a-f]{64}$/.test(pinned)) return ed25519(pinned, message, signatureHex);
  // The reference implementation's shape pins base64 of the PEM.
  const pem =
    typeof pinned === "string" && !pinned.startsWith("-----")
      ? Buffer.from(pinned, "base64").toString("latin1")
      : (pinned as string);
  const key = createPublicKey(pem);
  if (alg.startsWith("-8 ")) return cryptoVerify(null, message, key, Buffer.from(signatureHex, "hex"));
  const hash = alg.startsWith("-35 ") ? "sha384" : "sha256";
  return cryptoVerify(hash, message, { key, dsaEncoding: "ieee-p1363" }, Buffer.from(signatureHex, "hex"));
}

function climb(start: string, folds: readonly MmrFoldStep[]): string {
  let acc = start;
  for (const f of folds) {
    acc =
      f.siblingSide === "left" ? sha(be64(f.position + 1), f.sibling, acc) : sha(be64(f.position + 1), acc, f.sibling);
    expect(f.result).toBe(acc);
  }
  return acc;
}

function bag(peaks: readonly string[]): string {
  let acc = peaks[peaks.length - 1] as string;
  for (let i = peaks.length - 2; i >= 0; i--) acc = sha(acc, peaks[i] as string);
  return acc;
}

/** The trust file's value at a path like `witnesses[1].keys[0]` or `tsPubkeysB64["https://ts"]`. */
function at(trust: unknown, path: string): unknown {
  let cur = trust as Record<string, unknown>;
  for (const m of path.matchAll(/\.?([A-Za-z_$][\w$]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/g)) {
    cur = cur[m[1] ?? m[2] ?? (JSON.parse(m[3] as string) as string)] as Record<string, unknown>;
  }
  return cur;
}

/** Python's json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=True), for plain JSON with integer numbers. */
function pyjsonByHand(v: unknown): string {
  if (v === null || typeof v === "boolean" || typeof v === "number") return JSON.stringify(v);
  if (typeof v === "string")
    return JSON.stringify(v).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  if (Array.isArray(v)) return `[${v.map(pyjsonByHand).join(",")}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o)
    .sort()
    .map((k) => `${pyjsonByHand(k)}:${pyjsonByHand(o[k])}`)
    .join(",")}}`;
}

/** A bundle as the input holds it at a location: a raw part decoded, or the JSON itself. */
function bundleAt(input: unknown, location: string): Record<string, unknown> | undefined {
  const v = location.includes(":") ? undefined : location === "$" ? input : at(input, location);
  if (typeof v === "string") return JSON.parse(Buffer.from(v, "base64").toString("utf8"));
  return v as Record<string, unknown> | undefined;
}

/** Sections 2–7 of a record, the terminal one's or an interim one's. */
function recordByHand(e: RecordDerivation): number {
  let steps = 0;
  for (const d of [e.evidenceId, e.coreManifestDigest]) {
    if (isAbsent(d) || !d.preimage) continue;
    expect(shaText(d.preimage.text as string)).toBe(d.recomputed);
    steps++;
  }
  if (!isAbsent(e.capsuleId) && e.capsuleId.preimage) {
    expect(shaText(e.capsuleId.preimage.text as string)).toBe(e.capsuleId.recomputed);
    steps++;
  }
  if (!isAbsent(e.agentDigests) && e.agentDigests.outputPreimage) {
    expect(e.agentDigests.outputPreimage.text).toBe(JSON.stringify({ terminalState: e.agentDigests.terminalState }));
    expect(shaText(e.agentDigests.outputPreimage.text as string)).toBe(e.agentDigests.outputRecomputed);
    steps++;
  }
  const pe = e.producerEnvelope;
  if (!isAbsent(pe) && pe.cose && pe.sigStructure && pe.cose.payload !== null) {
    const tbs = sigStructure(pe.cose.protectedBytes.hex as string, pe.cose.payload);
    expect(pe.sigStructure.hex).toBe(tbs);
    expect(sha(tbs)).toBe(pe.sigStructure.sha256);
    expect(ed25519(pe.kid as string, Buffer.from(tbs, "hex"), pe.cose.signature)).toBe(pe.result === "verifies");
    steps++;
  }
  const inc = e.inclusion;
  if (!isAbsent(inc) && inc.leafHash && inc.peakIndex !== null) {
    expect(inc.leafHash).toBe(sha("00", inc.leafBody as string));
    expect(climb(inc.leafHash, inc.folds)).toBe(inc.peaks[inc.peakIndex]);
    expect(bag(inc.peaks)).toBe(inc.root);
    expect(inc.equal).toBe(inc.root === inc.checkpointRoot);
    steps++;
  }
  steps += checkpointByHand(isAbsent(e.checkpoint) ? undefined : e.checkpoint);
  return steps;
}

function checkpointByHand(cp: Exclude<Explanation["checkpoint"], { absent: string }> | null | undefined): number {
  if (!cp?.signingBody) return 0;
  expect(shaText(cp.signingBody.text as string)).toBe(cp.digest);
  // Signed: the 64 ASCII characters of the digest, not its 32 bytes.
  expect(ed25519(cp.keyId as string, Buffer.from(cp.digest as string, "ascii"), cp.signature as string)).toBe(
    cp.result === "verifies",
  );
  expect(cp.entryHash).toBe(sha(cp.digest as string));
  return 1;
}

function consistencyByHand(c: {
  oldPeaks: readonly string[];
  newPeaks: readonly string[];
  oldBagged: string | null;
  newBagged: string | null;
  climbs: readonly { oldPeak: number; newPeak: number; folds: readonly MmrFoldStep[]; top: string; equal: boolean }[];
}): void {
  expect(bag(c.oldPeaks)).toBe(c.oldBagged);
  if (c.newBagged !== null) expect(bag(c.newPeaks)).toBe(c.newBagged);
  for (const cl of c.climbs) {
    expect(climb(c.oldPeaks[cl.oldPeak] as string, cl.folds)).toBe(cl.top);
    expect(cl.equal).toBe(cl.top === c.newPeaks[cl.newPeak]);
  }
}

/** An interim record: its own derivation, then each relation inspect shows, from the bytes and the input's JSON. */
function interimByHand(r: InterimRecordSection, input: unknown, terminal: Record<string, unknown> | undefined): number {
  let steps = recordByHand(r);
  const own = bundleAt(input, r.location.verified);
  if (r.location.bytes?.text !== undefined) {
    expect(shaText(r.location.bytes.text)).toBe(r.location.bytes.sha256);
    steps++;
  }
  const obj = (v: unknown): Record<string, unknown> | undefined =>
    v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  const mine = obj(own?.taskEvidencePayload);
  if (own) {
    expect(r.sealedIn).toBe(typeof mine?.terminalState === "string" ? mine.terminalState : null);
    expect(r.label).toBe(
      `interim record ${typeof own.evidenceId === "string" ? own.evidenceId : "(no evidenceId)"} at ${r.location.verified}`,
    );
  }
  const theirs = obj(terminal?.taskEvidencePayload);
  if (r.prefix && own && terminal && mine && theirs) {
    const shown = (v: unknown) => (v === undefined ? "absent" : typeof v === "string" ? v : JSON.stringify(v));
    for (const m of r.prefix.members) {
      const name = /^(?:payload|bundle) (\w+)$/.exec(m.what)?.[1];
      if (name === undefined) continue;
      const [a, b] = m.what.startsWith("bundle") ? [own[name], terminal[name]] : [mine[name], theirs[name]];
      expect([m.interim, m.other, m.equal]).toEqual([shown(a), shown(b), JSON.stringify(a) === JSON.stringify(b)]);
    }
    // An absent or non-array transcript holds no entries.
    const entries = (v: unknown) => (Array.isArray(v) ? v : []);
    const t = entries(mine.transcript);
    expect(r.prefix.transcript.equal).toBe(
      t.length === r.prefix.sequence + 1 &&
        JSON.stringify(t) === JSON.stringify(entries(theirs.transcript).slice(0, t.length)),
    );
    steps++;
  }
  if (r.log) {
    let root = r.log.root.interim;
    for (const step of r.log.chain) {
      consistencyByHand(step.consistency);
      steps++;
      // A step that does not verify ends the chain where it started (its old peaks may not even bag to that root).
      if (!step.verifies) {
        expect(step.failure).toBeDefined();
        break;
      }
      expect(step.consistency.oldBagged).toBe(root);
      root = step.consistency.newBagged as string;
    }
    expect(r.log.reached.root).toBe(root);
  }
  for (const m of r.pausedTask?.messages.items ?? []) {
    expect(shaText(m.observed.text as string)).toBe(m.observed.recomputed);
    expect(m.equal).toBe(m.entry !== null && m.partCommitment === m.observed.recomputed && m.role === m.observed.role);
    steps++;
  }
  for (const x of r.pausedTask?.effects.items ?? []) {
    expect(shaText(x.observed.text as string)).toBe(x.observed.recomputed);
    expect(x.equal).toBe(x.contentCommitment === x.observed.recomputed);
    steps++;
  }
  return steps;
}

function byHand(e: Explanation, trust: unknown, input: unknown): number {
  let steps = recordByHand(e);
  steps += checkpointByHand(isAbsent(e.continuity) ? undefined : e.continuity.prior);
  if (!isAbsent(e.receipts) && !isAbsent(e.checkpoint)) {
    for (const r of e.receipts.records.items) {
      if (!r.proof || !r.root || !r.cose || !r.sigStructure) continue;
      let acc =
        r.proof.kind === "RFC9162_SHA256"
          ? sha("00", e.checkpoint.entryHash as string)
          : sha(
              r.proof.writeSetDigest as string,
              shaText(r.proof.commitEvidence as string),
              r.proof.claimsDigest as string,
            );
      expect(r.proof.leafHash).toBe(acc);
      for (const f of r.proof.folds) {
        const prefix = r.proof.kind === "RFC9162_SHA256" ? "01" : "";
        acc = f.siblingSide === "left" ? sha(prefix, f.sibling, acc) : sha(prefix, acc, f.sibling);
        expect(f.result).toBe(acc);
      }
      expect(acc).toBe(r.root);
      const tbs = sigStructure(r.cose.protectedBytes.hex as string, r.root);
      expect(r.sigStructure.hex).toBe(tbs);
      if (r.trustPath !== null)
        expect(pinnedVerify(at(trust, r.trustPath), r.cose.protected, Buffer.from(tbs, "hex"), r.cose.signature)).toBe(
          true,
        );
      steps++;
    }
  }
  if (!isAbsent(e.continuity)) {
    const c = e.continuity;
    if (c.consistency) {
      consistencyByHand(c.consistency);
      steps++;
    }
    for (const l of c.lines.items) {
      if (l.signedMessage === null || l.trustPath === null) continue;
      const note = c.notes.find((n) => n.checkpoint === l.checkpoint)?.text;
      expect(l.signedMessage.text).toBe(`cosignature/v1\ntime ${l.timestamp}\n${note}`);
      // The line: "— <name> <base64(key ID ‖ be64 timestamp ‖ signature)>"; the key: "<name>+<id>+base64(0x04 ‖ key)" or raw hex.
      const sig = Buffer.from(l.line.split(" ")[2] as string, "base64");
      expect(BigInt(`0x${sig.subarray(4, 12).toString("hex")}`).toString()).toBe(l.timestamp);
      const pinnedAt = at(trust, l.trustPath) as string | { key: string };
      // A key with a window (contract §5.1) is pinned as {"key", …}.
      const pinned = typeof pinnedAt === "string" ? pinnedAt : pinnedAt.key;
      const raw = /^[0-9a-f]{64}$/.test(pinned)
        ? pinned
        : Buffer.from(pinned.split("+").slice(2).join("+"), "base64").subarray(1).toString("hex");
      expect(ed25519(raw, Buffer.from(l.signedMessage.text as string, "utf8"), sig.subarray(12).toString("hex"))).toBe(
        l.result === "verifies",
      );
      steps++;
    }
  }
  if (!isAbsent(e.commitments)) {
    for (const row of e.commitments.transcript.items) {
      if (!row.observed) continue;
      expect(shaText(row.observed.text as string)).toBe(row.observed.recomputed);
      steps++;
      const t = row.transition;
      if (!t?.preimage) continue;
      // The ten elements, from what inspect shows; the bound Message's own ids from the input itself.
      const message = at(input, row.observed.at) as Record<string, unknown> | undefined;
      if (message !== undefined) {
        // ProtoJSON: either spelling; absent (or not a string) is "".
        const id = (v: unknown) => (typeof v === "string" ? v : "");
        expect([t.messageTaskId, t.messageContextId]).toEqual([
          id(message.taskId ?? message.task_id),
          id(message.contextId ?? message.context_id),
        ]);
      }
      const preimage = pyjsonByHand([
        "a2a-task-evidence/transition/v1",
        t.taskId,
        t.contextId,
        row.index,
        t.fromState,
        t.toState,
        row.messageId,
        t.messageTaskId,
        t.messageContextId,
        shaText(row.observed.text as string),
      ]);
      expect(t.preimage.text).toBe(preimage);
      expect(shaText(preimage)).toBe(t.recomputed);
      expect(row.equal).toBe(t.recomputed === t.transitionCommitment);
      if (t.resumption) {
        const r = t.resumption;
        expect([r.sameTask, r.sameContext]).toEqual([
          r.messageTaskId === r.taskId,
          r.messageContextId === "" ? null : r.messageContextId === r.contextId,
        ]);
      }
      steps++;
    }
    for (const row of e.commitments.transcript.items) {
      const t = row.transition;
      if (!t?.preimage || row.observed) continue;
      // Bound to no Message: the last four elements are null.
      expect(t.preimage.text).toBe(
        pyjsonByHand([
          "a2a-task-evidence/transition/v1",
          t.taskId,
          t.contextId,
          row.index,
          t.fromState,
          t.toState,
          null,
          null,
          null,
          null,
        ]),
      );
      expect(shaText(t.preimage.text as string)).toBe(t.recomputed);
      steps++;
    }
    for (const row of e.commitments.traces.items) {
      if (!row.preimage || row.at === null) continue;
      expect(shaText(row.preimage.text as string)).toBe(row.recomputed);
      const trace = at(input, row.at);
      if (trace !== undefined) expect(pyjsonByHand(trace)).toBe(row.preimage.text);
      expect(row.equal).toBe(row.recomputed === row.traceDigest);
      steps++;
    }
    for (const row of e.commitments.artifacts.items) {
      for (const o of [row.observed, ...row.sameName]) {
        if (!o) continue;
        expect(shaText(o.text as string)).toBe(o.recomputed);
        steps++;
      }
    }
  }
  if (!isAbsent(e.interim)) {
    const terminal = bundleAt(input, e.location.verified);
    for (const r of e.interim.records.items) steps += interimByHand(r, input, terminal);
  }
  return steps;
}

const VECTORS = join(REPO_ROOT, "vectors");

function parsed(data: InputData): unknown {
  try {
    return JSON.parse(Buffer.from(data as Uint8Array).toString("utf8"));
  } catch {
    return undefined; // a stream: its paths are the folded Task's, not the file's
  }
}

/** Inspect the input and redo what it printed; a pending Task's interim records are redone the same way. */
function explainedByHand(
  name: string,
  data: InputData,
  trustText: string,
  interim?: readonly InputData[],
  refusedIsNothing = false,
): number {
  const r = inspect(
    { source: name, data, trust: trustText, ...(interim ? { interim } : {}) },
    { bytes: true, all: true },
  );
  const input = parsed(data);
  if (r.ok) return byHand(r.value, JSON.parse(trustText), input);
  if (!r.pending && refusedIsNothing) return 0;
  if (!r.pending) throw new Error(`${r.code}: ${r.detail}`);
  return r.pending.interim.records.items.reduce((n, x) => n + interimByHand(x, input, undefined), 0);
}

describe("every step inspect prints can be redone by hand", () => {
  const names = readdirSync(VECTORS)
    .filter((n) => existsSync(join(VECTORS, n, "expected.json")))
    .sort();
  for (const name of names) {
    it(name, () => {
      const dir = join(VECTORS, name);
      const steps = explainedByHand(name, vectorInput(dir), readFileSync(join(dir, "trust.json"), "utf8"));
      // A Task that never resumed carries no record at all: nothing to redo, and nothing claimed.
      if (name === "pending-input-required-never-resumed") expect(steps).toBe(0);
      else expect(steps).toBeGreaterThan(5);
    });
  }
  for (const c of lifecycleCases()) {
    it(c.name, () => {
      const trust = c.trust === undefined ? "{}" : Buffer.from(c.trust).toString("utf8");
      expect(explainedByHand(c.name, c.data, trust, c.interim)).toBeGreaterThan(5);
    });
  }
  it("lifecycle inputs changed one to three times: whatever is left to explain is redone by hand", () => {
    let steps = 0;
    for (const c of changedLifecycleCases(200, 20261002)) {
      const trust = c.trust === undefined ? "{}" : Buffer.from(c.trust).toString("utf8");
      try {
        steps += explainedByHand(c.name, c.data, trust, c.interim, true);
      } catch (e) {
        throw new Error(`${c.name}: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    expect(steps).toBeGreaterThan(1000);
  });
  it.skipIf(!hasExternal("a2a-reference"))("a2a-reference/positive_vector.json", () => {
    const bytes = readFileSync(externalPath("a2a-reference", "positive_vector.json"));
    const trust = JSON.parse(bytes.toString("utf8")).trustConfig;
    const r = inspect({ source: "reference", data: bytes, trust: JSON.stringify(trust) }, { bytes: true, all: true });
    if (!r.ok) throw new Error(r.detail);
    expect(byHand(r.value, trust, JSON.parse(bytes.toString("utf8")))).toBeGreaterThan(5);
  });
});
