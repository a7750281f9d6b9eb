/**
 * Semantic mutations: one change at the source — the payload before sealing, the manifest before
 * the checkpoints are signed, the capsule before it is sealed, every reference copy, or the keys
 * that sign — after which the re-signing mutator derives every digest, signature, proof and
 * receipt again. Only the properties that compare the record with something outside it (the
 * observed Task, the trust file, the negotiation) can notice; the semantic coverage map says which.
 */
import fc from "fast-check";
import { isJsonObject, type JsonObject, type JsonValue } from "../../src/json/value.js";
import { resign, signer, type ResignKeys, type SemanticMutation } from "../../producer/mutate.js";
import type { Exchange } from "../../producer/exchange.js";
import { generic, stringsOf, type Mutation } from "./mutate-raw.js";
import type { Site } from "./sites.js";

export const TARGETS = ["taskEvidencePayload", "manifest", "capsule", "taskEvidenceReference", "keys"] as const;
export type Target = (typeof TARGETS)[number];

export interface SemanticPlan {
  readonly seed: number;
  readonly target: number;
  readonly site: number;
  readonly op: number;
  readonly variant: number;
  readonly pick: number;
}

export const semanticPlan = (seeds: fc.Arbitrary<number>): fc.Arbitrary<SemanticPlan> =>
  fc.record({
    seed: seeds,
    target: fc.nat(TARGETS.length - 1),
    site: fc.nat(),
    op: fc.nat(9),
    variant: fc.nat(15),
    pick: fc.nat(),
  });

/** Paths of every value under a subtree (the subtree itself excluded: the hook changes it in place). */
function pathsUnder(
  v: JsonValue,
  path: Array<string | number> = [],
  out: Array<Array<string | number>> = [],
): Array<Array<string | number>> {
  if (Array.isArray(v)) v.forEach((x, i) => (out.push([...path, i]), pathsUnder(x, [...path, i], out)));
  else if (isJsonObject(v)) {
    for (const k of Object.keys(v)) {
      out.push([...path, k]);
      pathsUnder(v[k] as JsonValue, [...path, k], out);
    }
  }
  return out;
}

const pathCache = new Map<string, Array<Array<string | number>>>();

export interface SemanticMutant {
  readonly target: Target;
  /** The change as applied at the source (its site is relative to the target's object). */
  readonly mutation: Mutation;
  readonly exchange: Exchange;
}

const STRANGER = signer("a stranger who never was a producer");

/** Applies a plan through the re-signing mutator; undefined when the producer refuses the change (e.g. a receipt position outside its log). */
export function applySemantic(name: string, base: Exchange, plan: SemanticPlan): SemanticMutant | undefined {
  const target = TARGETS[plan.target] as Target;
  if (target === "keys") {
    const keys: ResignKeys = plan.variant % 2 ? { producer: STRANGER } : { checkpoint: STRANGER };
    const which = plan.variant % 2 ? "producer" : "checkpoint";
    const site: Site = { root: "bundle", path: [which] };
    return {
      target,
      mutation: {
        op: "replace",
        site,
        before: "producer",
        after: "stranger",
        description: `everything re-signed with a stranger's key as the ${which} key`,
      },
      exchange: resign(base, {}, keys),
    };
  }
  const subtree = base.bundle[target] as JsonValue;
  const key = `${name} ${target}`;
  let paths = pathCache.get(key);
  if (!paths) pathCache.set(key, (paths = pathsUnder(subtree)));
  if (paths.length === 0) return undefined;
  const path = paths[plan.site % paths.length] as Array<string | number>;
  const strings = () => stringsOf(base.bundle);
  let applied: Mutation | undefined;
  // The same change to every copy of the reference; the first application is the one described.
  const change = (o: JsonObject) => {
    const m = generic(o, { root: "bundle", path }, plan.op, plan.variant, plan.pick, strings);
    applied ??= m;
  };
  const hooks: SemanticMutation =
    target === "taskEvidencePayload"
      ? { payload: change }
      : target === "manifest"
        ? { manifest: change }
        : target === "capsule"
          ? { capsule: change }
          : { reference: change };
  try {
    const exchange = resign(base, hooks);
    return applied ? { target, mutation: applied, exchange } : undefined;
  } catch (e) {
    if ((e as { name?: string }).name === "ProducerError") return undefined;
    throw e;
  }
}
