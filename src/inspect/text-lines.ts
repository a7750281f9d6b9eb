/**
 * The lines an explanation is written in, and the small renderings every section shares (bytes,
 * digests, COSE structures, checkpoints, observed content, where a bundle was found). Every line
 * goes through `printable` as it is written.
 */
import {
  type Absent,
  type Bytes,
  type CheckpointSection,
  type CoseSection,
  type DigestSection,
  isAbsent,
  type Listed,
  type LocationSection,
  type Narrowed,
  type ObservedText,
  type StepFailure,
} from "./model.js";
import { type PartRow } from "../evidence/parts.js";
import { printable } from "../util/printable.js";

const LABEL = 20;

export class Lines {
  readonly out: string[] = [];
  add(indent: number, s: string): void {
    this.out.push(`${" ".repeat(indent)}${s}`);
  }
  kv(indent: number, label: string, value: string): void {
    this.add(indent, `${`${label}:`.padEnd(LABEL)} ${value}`);
  }
  /** A value that may span lines (note text, signed messages): each line quoted under the label. */
  block(indent: number, label: string, value: string): void {
    this.add(indent, `${label}:`);
    const parts = value.split("\n");
    if (parts[parts.length - 1] === "") parts.pop();
    for (const p of parts) this.add(indent + 2, `| ${p}`);
  }
  more(indent: number, l: Listed<unknown>, what: string): void {
    if (l.omitted > 0) this.add(indent, `… and ${l.omitted} more ${what} (--all lists every one)`);
  }
  /** Another section's lines, indented under this one (made printable once, by `text`). */
  nest(indent: number, child: Lines): void {
    for (const line of child.out) this.out.push(line === "" ? "" : `${" ".repeat(indent)}${line}`);
  }
  text(): string {
    return `${this.out.map(printable).join("\n")}\n`;
  }
}

export function bytesText(b: Bytes): string {
  return `${b.length} bytes, SHA-256 ${b.sha256}`;
}

/** The bytes themselves, when --bytes (or the section) asked for them. */
export function shownBytes(l: Lines, indent: number, b: Bytes, label = "the bytes"): void {
  if (b.text !== undefined) l.block(indent, label, b.text);
  if (b.hex !== undefined) l.kv(indent, `${label} (hex)`, b.hex);
}

/** A signature's result and why: "verifies under …", "does not verify: …", "not checked: …". */
export function resultText(result: string, detail: string): string {
  if (detail === "") return result;
  return `${result}${result !== "not checked" && detail.startsWith("under ") ? " " : ": "}${detail}`;
}

export function equalText(equal: boolean): string {
  return equal ? "(equal)" : "(differs)";
}

/** Why a step stopped before its result ("stopped"), or what the primitive said of a result it computed ("code"). */
export function failureLine(l: Lines, indent: number, f: StepFailure | undefined, computed = false): void {
  if (f)
    l.add(
      indent,
      `${computed ? "code" : "stopped"}: ${f.code ? `${f.code}: ` : ""}${f.detail}${f.path ? ` (at ${f.path})` : ""}`,
    );
}

export function absent(l: Lines, s: object): s is Absent {
  if (!isAbsent(s)) return false;
  l.add(2, `not present: ${s.absent}`);
  return true;
}

export function narrowedLines(l: Lines, n: Narrowed | undefined): void {
  if (!n) return;
  if (n.kind === "match") {
    l.add(
      4,
      `with ${n.numbers} widened number(s) written back as integers, the canonical bytes are ${bytesText(n.preimage as Bytes)}`,
    );
    l.kv(6, "which give", n.recomputed as string);
    if (n.preimage) shownBytes(l, 6, n.preimage);
  } else if (n.kind === "tooMany") {
    l.add(4, `narrowing widened numbers back to integers: ${n.reason ?? ""} stop the search`);
  } else {
    l.add(4, "no narrowing of widened numbers gives the claimed value either");
  }
}

export function digest(l: Lines, title: string, s: DigestSection | Absent): void {
  l.add(0, title);
  if (absent(l, s)) return;
  l.kv(2, "rule", s.rule);
  if (s.preimage) {
    l.kv(2, "canonical bytes", bytesText(s.preimage));
    shownBytes(l, 4, s.preimage);
  }
  for (const f of s.numberFlags.items)
    l.add(4, `note: the number at ${f} is hashed as written, not as Python prints an integer`);
  l.more(4, s.numberFlags, "number(s)");
  failureLine(l, 2, s.failure);
  if (s.recomputed) l.kv(2, "recomputed", s.recomputed);
  l.kv(
    2,
    "claimed",
    s.claimed === null
      ? `absent (no ${s.claimedAt})`
      : `${s.claimed} at ${s.claimedAt}${s.recomputed ? ` ${equalText(s.equal)}` : ""}`,
  );
  narrowedLines(l, s.narrowed);
}

export function cose(l: Lines, indent: number, c: CoseSection): void {
  l.kv(indent, "protected bytes", `${bytesText(c.protectedBytes)} (as received: the signature covers these)`);
  if (c.protectedBytes.hex !== undefined) l.add(indent + 2, c.protectedBytes.hex);
  l.add(indent, c.protected.length === 0 ? "protected header: {} (empty)" : "protected header:");
  for (const h of c.protected) l.add(indent + 2, `${h.label}${h.name ? ` (${h.name})` : ""}: ${h.value}`);
  l.add(indent, c.unprotected.length === 0 ? "unprotected header: {} (empty)" : "unprotected header:");
  for (const h of c.unprotected) l.add(indent + 2, `${h.label}${h.name ? ` (${h.name})` : ""}: ${h.value}`);
  l.kv(
    indent,
    "payload",
    c.payload === null
      ? "nil (detached)"
      : `${c.payloadLength} bytes ${c.payload}${(c.payloadLength ?? 0) * 2 > c.payload.length ? "…" : ""}`,
  );
  l.kv(
    indent,
    "signature",
    `${c.signatureLength} bytes ${c.signature}${c.signatureLength * 2 > c.signature.length ? "…" : ""}`,
  );
}

export function checkpoint(l: Lines, indent: number, s: CheckpointSection): void {
  l.kv(indent, "at", s.at);
  if (s.reconstructed)
    l.add(
      indent,
      "read with widened numbers written back as integers: the signed body is a reconstruction, not what was received",
    );
  failureLine(l, indent, s.failure);
  if (s.signingBody === null) return;
  l.kv(indent, "log_id", s.logId ?? "");
  l.kv(indent, "mmr_size", `${s.mmrSize}, root ${s.root}`);
  l.kv(indent, "prev_size", `${s.prevSize}, prev_root ${s.prevRoot === "" ? '""' : s.prevRoot}`);
  l.kv(indent, "timestamp", `${s.timestamp} (reported, never proof of time)`);
  l.kv(indent, "signing body", `pyjson of the nine signed members, ${bytesText(s.signingBody)}`);
  l.add(indent + 2, s.signingBody.text ?? "");
  l.kv(indent, "digest", `SHA-256(signing body) = ${s.digest}`);
  l.kv(indent, "signed", `the 64 ASCII characters "${s.digest}", not the raw digest`);
  l.kv(indent, "Ed25519", `under key_id ${s.keyId}: ${s.result}`);
  l.kv(indent, "signature", s.signature ?? "");
  l.kv(indent, "entry_hash", `SHA-256(the raw 32-byte digest) = ${s.entryHash}`);
}

/** Each observed Part beside its per-Part commitment (part-commitments.md), when the entry carries them. */
export function partLines(l: Lines, parts: readonly PartRow[] | undefined): void {
  if (!parts) return;
  l.add(8, `partCommitments (${parts.length}): one per Part, in order`);
  for (const p of parts) {
    l.add(10, `part ${p.index} ${p.kind ?? "(none)"}: ${p.commitment ?? "(no commitment)"}`);
    l.add(12, p.fault === null ? "recomputes: equal" : `does not recompute: ${p.fault}`);
  }
}

export function observedLine(o: ObservedText, extra: string): string {
  const other = o.otherParts > 0 ? `, ${o.otherParts} other part(s) not covered` : "";
  return `observed ${o.at}${extra}: ${o.textParts} text part(s)${other}, SHA-256 ${o.recomputed}`;
}

export function observedText(l: Lines, indent: number, o: ObservedText): void {
  if (o.text !== undefined) l.block(indent, "the text hashed", o.text);
}

export function locationLines(l: Lines, loc: LocationSection): void {
  l.add(
    2,
    `${loc.copies.items.length + loc.copies.omitted} cop${loc.copies.items.length + loc.copies.omitted === 1 ? "y" : "ies"} located:`,
  );
  for (const c of loc.copies.items) {
    l.add(
      4,
      `${c.verified ? "* " : "  "}${c.location}  (${c.carrier}${c.artifactId !== null ? `, artifact ${c.artifactId}` : ""})${c.verified ? "  <- verified" : ""}`,
    );
  }
  l.more(4, loc.copies, "copies");
  l.kv(2, "verified copy", loc.verified);
  if (loc.bytes) {
    l.kv(2, "its bytes", `${bytesText(loc.bytes)} (the base64 part decoded)`);
    shownBytes(l, 4, loc.bytes);
  }
  l.kv(2, "carrier", `${loc.carrier}: ${loc.carrierNote}`);
  l.kv(2, "extensionVersion", loc.extensionVersion ?? "absent");
  l.kv(2, "recordProfile", loc.recordProfile ?? "absent");
}

/** A record's own derivation (sections 2–7), for the terminal record and each interim one. */
