/** Where the bundle was found: every located copy, its carrier, and which one is verified. */
import type { Evidence } from "../input/load.js";
import type { Carrier } from "../input/locate.js";
import { member } from "../json/value.js";
import { base64ToBytesStrict } from "../util/bytes.js";
import { binary, listed } from "./common.js";
import type { InspectOptions, LocationSection } from "./model.js";

const CARRIER_NOTES: Readonly<Record<Carrier, string>> = {
  raw: "a base64 raw part: the producer's exact bytes, every digest is recomputed over them",
  data: "a data part: it passed through protobuf Struct/Value, whose numbers are doubles, so numeric lexemes may not be the producer's",
  inline:
    "inline metadata: it passed through protobuf Struct/Value, whose numbers are doubles, so numeric lexemes may not be the producer's",
  capture: "the capture's evidenceBundle: the copy the client recorded, as JSON",
  bare: "the input itself is the bundle",
};

export function locationSection(evidence: Evidence, o: InspectOptions): LocationSection {
  const primary = evidence.bundles[0];
  if (primary === undefined) throw new Error("loadEvidence returned no bundle");
  const str = (name: string): string | null => {
    const v = member(primary.bundle, name);
    return typeof v === "string" ? v : null;
  };
  // A raw bundle is its part's one raw member, decoded (locate.ts reads exactly that part).
  const part = primary.carrier === "raw" ? primary.artifact?.parts[0]?.raw : undefined;
  const raw = part === undefined ? undefined : base64ToBytesStrict(part);
  return {
    copies: listed(evidence.bundles, o, (b, i) => ({
      location: b.location,
      carrier: b.carrier,
      artifactId: b.artifact?.artifactId ?? null,
      verified: i === 0,
    })),
    verified: primary.location,
    carrier: primary.carrier,
    // Shown as text with --bytes: the strict parse has already refused anything but UTF-8 JSON.
    bytes:
      raw === undefined
        ? null
        : { ...binary(raw, { ...o, bytes: false }), ...(o.bytes ? { text: Buffer.from(raw).toString("utf8") } : {}) },
    carrierNote: CARRIER_NOTES[primary.carrier],
    structuredCarrier: primary.carrier === "data" || primary.carrier === "inline",
    recordProfile: str("recordProfile"),
    extensionVersion: str("extensionVersion"),
  };
}
