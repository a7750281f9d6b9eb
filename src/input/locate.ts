/**
 * Bundle location (a2a-wire.md §6.12; contract §3): inside a Task the bundle is looked for in every
 * legal carrier — the evidence Artifact's `raw` (base64) or `data` part, and a bundle-shaped value
 * inline under `metadata[<extension URI>]` — and every place it is found is recorded.
 */
import { isJsonObject, type JsonObject } from "../json/value.js";
import { joinPath } from "../json/path.js";
import { parseStrictJson } from "../json/strict-json.js";
import { base64ToBytesStrict } from "../util/bytes.js";
import { fail, ok, type Failure, type Result } from "../result.js";
import { EVIDENCE_ARTIFACT_ID, EVIDENCE_MEDIA_TYPE, EXTENSION_URI } from "../profile.js";
import { extensionMetadata, type A2AArtifact, type A2APart, type A2ATask } from "./a2a.js";
import { isBundleShaped } from "./classify.js";

/** How the bundle reached us. `raw` keeps the producer's exact bytes; `data` and `inline` passed through protobuf Struct/Value (numbers may have been widened to doubles). */
export type Carrier = "raw" | "data" | "inline" | "capture" | "bare";

export interface LocatedBundle {
  /** JSON path of the bundle in the input, e.g. `result.artifacts[1].parts[0].raw`. */
  readonly location: string;
  readonly carrier: Carrier;
  readonly bundle: JsonObject;
  /** The evidence Artifact that carried it, for artifact carriers. */
  readonly artifact?: A2AArtifact;
  /** For an interim record given with the paused Task that carried it: that Task and its content Artifacts. */
  readonly pausedTask?: { readonly task: A2ATask; readonly content: readonly A2AArtifact[] };
}

export interface LoadLimits {
  /** Maximum decoded size of one bundle. */
  readonly maxBundleBytes: number;
}

export const DEFAULT_LOAD_LIMITS: LoadLimits = { maxBundleBytes: 4 * 1024 * 1024 };

export const CARRIER_PRIORITY: Record<Carrier, number> = { raw: 0, data: 1, inline: 2, capture: 3, bare: 4 };

function isEvidenceArtifact(a: A2AArtifact, notes: string[]): boolean {
  const byExtension = a.extensions.includes(EXTENSION_URI);
  const byMediaType = a.parts.some((p) => p.mediaType === EVIDENCE_MEDIA_TYPE);
  const byId = a.artifactId === EVIDENCE_ARTIFACT_ID;
  if (byExtension !== byMediaType && (byExtension || byMediaType)) {
    notes.push(
      `${a.path}: evidence artifact identified by ${byExtension ? "its extensions list" : "its part media type"} only; the extensions list and the part media type should agree`,
    );
  }
  return byExtension || byMediaType || byId;
}

function decodeRawBundle(raw: string, path: string, limits: LoadLimits): Result<JsonObject> {
  // Each base64 character carries 6 bits: refuse before decoding anything oversized.
  if (Math.floor((raw.length * 3) / 4) > limits.maxBundleBytes + 2) {
    return fail("INPUT_BUNDLE_TOO_LARGE", `the bundle exceeds ${limits.maxBundleBytes} bytes`, path);
  }
  const bytes = base64ToBytesStrict(raw);
  if (!bytes)
    return fail(
      "INPUT_BUNDLE_BASE64",
      "the raw part is not strict standard base64 (padded, no stray characters)",
      path,
    );
  if (bytes.length > limits.maxBundleBytes) {
    return fail(
      "INPUT_BUNDLE_TOO_LARGE",
      `the bundle is ${bytes.length} bytes; the limit is ${limits.maxBundleBytes}`,
      path,
    );
  }
  const parsed = parseStrictJson(bytes, { maxBytes: limits.maxBundleBytes, maxDepth: 64 });
  if (!parsed.ok) {
    return fail(
      "INPUT_BUNDLE_NOT_JSON",
      `the decoded bundle is not strict JSON: ${parsed.detail} at ${parsed.path} (${parsed.code})`,
      path,
    );
  }
  if (!isJsonObject(parsed.value))
    return fail("INPUT_BUNDLE_NOT_OBJECT", "the decoded bundle is not a JSON object", path);
  return ok(parsed.value);
}

/** What a Task carries as evidence: the bundles, and the Artifacts that are evidence rather than content. */
export interface LocatedInTask {
  readonly bundles: LocatedBundle[];
  /**
   * Artifacts whose parts are exactly one located bundle (contract §9.12). Only these leave the
   * payload's commitments; an Artifact that merely looks like evidence is content.
   */
  readonly evidenceArtifacts: A2AArtifact[];
  /** Why no bundle could be read from a part that was offered as one, for the error when none is found. */
  readonly rejected: Failure[];
}

/** The one part of an evidence-marked Artifact, read as a bundle; a failure says why it is not one. */
function bundleOfPart(
  part: A2APart,
  limits: LoadLimits,
): Result<{ bundle: JsonObject; location: string; carrier: "raw" | "data" }> {
  if (part.content === "raw") {
    const at = joinPath(part.path, "raw");
    const r = decodeRawBundle(part.raw as string, at, limits);
    return r.ok ? ok({ bundle: r.value, location: at, carrier: "raw" }) : r;
  }
  if (part.content === "data") {
    const at = joinPath(part.path, "data");
    if (!isJsonObject(part.data))
      return fail("INPUT_BUNDLE_NOT_OBJECT", "the evidence data part is not a JSON object", at);
    return ok({ bundle: part.data, location: at, carrier: "data" });
  }
  return fail("INPUT_BUNDLE_NOT_OBJECT", `the part holds ${part.content}, not a bundle`, part.path);
}

/**
 * Every bundle carried by a Task, in every legal carrier. An evidence-marked Artifact (extension,
 * media type, id, or metadata key) is evidence only when its parts are exactly one bundle (a raw
 * part that decodes to a JSON object, or a data part holding one; an object that is not a whole
 * bundle is then verified as the bundle and found wanting, never skipped); an
 * extra part, a part that is not a bundle, or no part at all makes it content, noted here and
 * judged by taskBinding like any other Artifact. A bundle larger than the limit is refused
 * outright: the input cannot be verified within bounds.
 */
export function locateInTask(task: A2ATask, limits: LoadLimits, notes: string[]): Result<LocatedInTask> {
  const bundles: LocatedBundle[] = [];
  const evidenceArtifacts: A2AArtifact[] = [];
  const rejected: Failure[] = [];
  for (const artifact of task.artifacts ?? []) {
    const inline = extensionMetadata(artifact);
    if (!isEvidenceArtifact(artifact, notes) && inline === undefined) continue;
    // Marked as evidence (or carrying the extension's metadata key): evidence only if it is a bundle.
    for (const part of artifact.parts) {
      if (part.content === "url")
        notes.push(
          `${joinPath(part.path, "url")}: evidence by URL is not fetched (offline verifier): ${part.url as string}`,
        );
    }
    const only = artifact.parts.length === 1 ? (artifact.parts[0] as A2APart) : undefined;
    if (only) {
      const read = bundleOfPart(only, limits);
      if (read.ok) {
        bundles.push({
          location: read.value.location,
          carrier: read.value.carrier,
          bundle: read.value.bundle,
          artifact,
        });
        evidenceArtifacts.push(artifact);
      } else {
        if (read.code === "INPUT_BUNDLE_TOO_LARGE") return read;
        if (only.content === "raw" || only.content === "data") rejected.push(read);
        notes.push(`${artifact.path}: marked as evidence but read as content: ${read.detail}`);
      }
    } else {
      // Not exactly one part: content (§9.12). A bundle among its parts is still located, as a copy
      // to verify and compare, but the Artifact it sits in must be committed like any other.
      for (const part of artifact.parts) {
        if (part.content !== "raw" && part.content !== "data") continue;
        const read = bundleOfPart(part, limits);
        if (!read.ok && read.code === "INPUT_BUNDLE_TOO_LARGE") return read;
        if (read.ok && isBundleShaped(read.value.bundle)) {
          bundles.push({
            location: read.value.location,
            carrier: read.value.carrier,
            bundle: read.value.bundle,
            artifact,
          });
        }
      }
      notes.push(
        `${artifact.path}: marked as evidence but read as content: it has ${artifact.parts.length} parts, not exactly one bundle`,
      );
    }
    if (isBundleShaped(inline)) {
      bundles.push({
        location: joinPath(artifact.path, "metadata", EXTENSION_URI),
        carrier: "inline",
        bundle: inline,
        artifact,
      });
    }
  }
  const inline = extensionMetadata(task);
  if (isBundleShaped(inline)) {
    bundles.push({ location: joinPath(task.path, "metadata", EXTENSION_URI), carrier: "inline", bundle: inline });
  }
  return ok({ bundles, evidenceArtifacts, rejected });
}
