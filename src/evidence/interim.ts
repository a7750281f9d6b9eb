/**
 * The interim records the caller supplied (a capture's `interimBundles`, or `--interim`), each
 * read as a record of its own: a context of its own, so that every property runs over it
 * unchanged, the evidenceId a citation names, and how a report names it (docs/profile.md, v3.2
 * additions). Read once per input.
 */
import { memberAt, type JsonValue } from "../json/value.js";
import type { LocatedBundle } from "../input/locate.js";
import { EvidenceContext } from "./context.js";

export interface InterimRecord {
  readonly located: LocatedBundle;
  /** The record on its own, as if it were the bundle verified: the properties run over it unchanged. */
  readonly ctx: EvidenceContext;
  /** The evidenceId it carries (what a citation names), or undefined when it carries none. */
  readonly evidenceId: string | undefined;
  /** How the report names it: its evidence ID and where it was found. */
  readonly label: string;
}

/** The supplied interim records, each with its own context (computed once per input). */
export function interimRecords(ctx: EvidenceContext): readonly InterimRecord[] {
  return ctx.once("interimRecords", () =>
    (ctx.evidence.interimBundles ?? []).map((located) => {
      const evidence = {
        shape: "bundle" as const,
        bundles: [located],
        evidenceArtifacts: new Set<never>(),
        origin: {},
        notes: [],
      };
      const id: JsonValue | undefined = memberAt(located.bundle, "evidenceId");
      const evidenceId = typeof id === "string" ? id : undefined;
      return {
        located,
        ctx: new EvidenceContext(evidence, ctx.trust, ctx.options),
        evidenceId,
        label: `interim record ${evidenceId ?? "(no evidenceId)"} at ${located.location}`,
      };
    }),
  );
}
