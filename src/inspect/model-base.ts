/**
 * The shapes every section of an explanation shares: bytes fed to a digest or a signature, why a
 * step stopped, a section with nothing to explain, a capped list, a narrowing, observed content.
 */
/** Bytes fed to a digest or a signature: how many, their SHA-256, and with `--bytes` the bytes. */
export interface Bytes {
  readonly length: number;
  readonly sha256: string;
  /** With `--bytes`: the bytes as text (canonical JSON is ASCII or UTF-8, a note is text). */
  readonly text?: string;
  /** With `--bytes`: the bytes as lowercase hex (CBOR). */
  readonly hex?: string;
}

/** Why a step could not be taken: the primitive's failure code (when it has one), its words, and where. */
export interface StepFailure {
  readonly code?: string;
  readonly detail: string;
  readonly path?: string;
}

/** A section with nothing to explain: the bundle does not carry what it is about. */
export interface Absent {
  readonly absent: string;
}

/** A list cut at the cap (20 unless `--all`): how many more there were. */
export interface Listed<T> {
  readonly items: readonly T[];
  readonly omitted: number;
}

export type SignatureResult = "verifies" | "does not verify" | "not checked";

/** A narrowing of widened numbers (structured carriers) under which a digest matches its claim. */
export interface Narrowed {
  /** `match`: these bytes give the claimed value; `tooMany`: the search stopped, as verify's does. */
  readonly kind: "match" | "tooMany" | "none";
  readonly numbers: number;
  readonly preimage?: Bytes;
  readonly recomputed?: string;
  readonly reason?: string;
}

export interface ObservedText {
  readonly at: string;
  readonly textParts: number;
  readonly otherParts: number;
  /** SHA-256 of the text parts joined with "\n". */
  readonly recomputed: string;
  /** With `--bytes`: the text hashed. */
  readonly text?: string;
}

export function isAbsent<T extends object>(s: T | Absent): s is Absent {
  return "absent" in s;
}
