/**
 * What every property reads: the located bundle, the caller's observation (Tasks) and trust, and
 * a few derived values computed once and shared (the payload digest is needed by two properties,
 * the checkpoint digest by three). Nothing here reads files, the clock or the network.
 */
import { showValue } from "../json/diff.js";
import { isJsonObject, member, type JsonObject, type JsonValue } from "../json/value.js";
import { pyjson } from "../canon/pyjson.js";
import { sha256HexOfText } from "../util/bytes.js";
import { fail, ok, type Result } from "../result.js";
import { EXTENSION_URI, EXTENSION_VERSION, RECORD_PROFILE_V1 } from "../profile.js";
import type { A2AMessage, A2ATask } from "../input/a2a.js";
import type { LocatedBundle } from "../input/locate.js";
import type { Evidence } from "../input/load.js";
import type { TrustConfig } from "../trust/config.js";
import { forgetCheckpointReadings } from "../log/checkpoint.js";
import type { CrossInputFindings } from "../witness/equivocation.js";
import type { StatementPool } from "../witness/pool.js";
import { narrowIntegralNumbers } from "./widening.js";
import type { ResolvedContent } from "./parts.js";

export interface VerifyOptions {
  /** The authority the caller expects the producer to be (`--authority`). */
  readonly authority?: string;
  /** The tenant the caller addressed (`--tenant`); A2A Tasks do not carry it. */
  readonly tenant?: string;
  /** A `--cosignatures` file's content (bytes, text or parsed): cosignature lines the caller brings. */
  readonly cosignatures?: Uint8Array | string | JsonValue;
  /** What comparing every input's checkpoints found for this input (a forked log), when compared. */
  readonly crossInput?: CrossInputFindings;
  /** The --cosignatures file's verified lines, gathered once for the run (else once per input). */
  readonly cosignaturePool?: () => StatementPool;
  /** The time to judge time rules against (`--at`, RFC 3339); without it they are not checked. */
  readonly at?: string;
  /**
   * What the caller resolved URLs to (`--resolved URL=FILE`), by URL: compared with a url Part's
   * RESOLVED commitment. The verifier itself never fetches a URL.
   */
  readonly resolved?: ReadonlyMap<string, ResolvedContent>;
}

export interface Digest {
  readonly hex: string;
  /** Paths of numbers written by a lexeme Python would not print for an integer. */
  readonly numberFlags: readonly string[];
}

export class EvidenceContext {
  readonly bundle: JsonObject;
  readonly located: LocatedBundle;
  private readonly memo = new Map<string, unknown>();

  readonly bundles: readonly LocatedBundle[];
  readonly observedTask: A2ATask | undefined;
  readonly firstTask: A2ATask | undefined;
  /** A direct Message SendMessage returned instead of a Task, when the input records one. */
  readonly firstMessage: A2AMessage | undefined;

  constructor(
    readonly evidence: Evidence,
    readonly trust: TrustConfig | undefined,
    readonly options: VerifyOptions,
  ) {
    this.bundles = evidence.bundles;
    this.observedTask = evidence.observedTask;
    this.firstTask = evidence.firstTask;
    this.firstMessage = evidence.firstMessage;
    this.located = evidence.bundles[0] as LocatedBundle;
    this.bundle = this.located.bundle;
    // What was read of another input's (or another call's) values is not this input's.
    forgetCheckpointReadings();
  }

  /** Computes a derived value once per input. */
  once<T>(key: string, compute: () => T): T {
    if (!this.memo.has(key)) this.memo.set(key, compute());
    return this.memo.get(key) as T;
  }

  get recordProfile(): string | undefined {
    const p = member(this.bundle, "recordProfile");
    return typeof p === "string" ? p : undefined;
  }

  /** Why the bundle's profile rules cannot be applied, or undefined when they can. */
  get unsupportedReason(): string | undefined {
    const version = member(this.bundle, "extensionVersion");
    if (version !== EXTENSION_VERSION) return `unsupported extension version ${showValue(version)}`;
    const profile = this.recordProfile;
    if (profile !== RECORD_PROFILE_V1)
      return `unsupported record profile ${profile === undefined ? "(none stated)" : profile}`;
    return undefined;
  }

  /** True when the bundle passed through a protobuf Struct/Value, whose numbers are doubles. */
  get structuredCarrier(): boolean {
    return this.located.carrier === "data" || this.located.carrier === "inline";
  }

  /**
   * The bundle as read for structure (sizes, indexes, sequence numbers, strings). For a structured
   * carrier, integral numbers a double widened (`1.0`) are written back as integers; a raw part's
   * bundle is used as is. Digests are recomputed over the presented bundle (`bundle`) first.
   */
  get structural(): JsonObject {
    return this.once("structural", () =>
      this.structuredCarrier ? (narrowIntegralNumbers(this.bundle).value as JsonObject) : this.bundle,
    );
  }

  private objectMember(name: string): JsonObject | undefined {
    const v = member(this.structural, name);
    return isJsonObject(v) ? v : undefined;
  }

  get payload(): JsonObject | undefined {
    return this.objectMember("taskEvidencePayload");
  }

  get manifest(): JsonObject | undefined {
    return this.objectMember("manifest");
  }

  get capsule(): JsonObject | undefined {
    return this.objectMember("capsule");
  }

  /** The observed terminal Task's evidence metadata, `Task.metadata[<extension URI>]`. */
  get taskReference(): JsonValue | undefined {
    const md = this.observedTask?.metadata;
    return md ? member(md, EXTENSION_URI) : undefined;
  }

  /** SHA-256 of pyjson(value), with the lexeme flags pyjson raised. */
  pyjsonDigest(value: JsonValue): Result<Digest> {
    const r = pyjson(value);
    if (!r.ok) return r;
    return ok({ hex: sha256HexOfText(r.value.text), numberFlags: r.value.numberFlags });
  }

  /** evidenceId recomputed from the presented payload (shared by contentBinding and the capsule checks). */
  get recomputedEvidenceId(): Result<Digest> {
    return this.once("evidenceId", () => {
      const payload = member(this.bundle, "taskEvidencePayload");
      if (!isJsonObject(payload))
        return fail("CANON_NOT_AN_OBJECT", "taskEvidencePayload is not an object", "taskEvidencePayload");
      return this.pyjsonDigest(payload);
    });
  }
}
