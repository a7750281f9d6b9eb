/**
 * The trust file's `agents` section: which keys may sign the Agent Card of which agent, named by
 * the card's URL or its `name`. `verify-card` tries a card's signatures only under the keys pinned
 * here; a key the card itself points at (`jku`, an embedded JWK) is never a trust anchor.
 */
import { member, type JsonObject, type JsonValue } from "../json/value.js";
import { joinPath } from "../json/path.js";
import { fail, ok, type Result } from "../result.js";
import { importAgentKey, type AgentKey } from "./agent-keys.js";

export interface TrustedAgentKey extends AgentKey {
  /** Where the key is in the trust file, for reports. */
  readonly path: string;
}

export interface TrustedAgent {
  /** The card URL or agent name the entry is for. */
  readonly card: string;
  readonly keys: readonly TrustedAgentKey[];
  readonly path: string;
}

/** Loads `agents` from a schema-valid native trust file; every key is imported up front. */
export function loadAgents(v: JsonObject): Result<ReadonlyMap<string, TrustedAgent>> {
  const out = new Map<string, TrustedAgent>();
  for (const [i, e] of ((member(v, "agents") as JsonValue[] | undefined) ?? []).entries()) {
    const entry = e as JsonObject;
    const at = joinPath("agents", i);
    const card = member(entry, "card") as string;
    if (out.has(card))
      return fail("TRUST_DUPLICATE_ENTRY", `${JSON.stringify(card)} is listed twice in agents`, joinPath(at, "card"));
    const keys: TrustedAgentKey[] = [];
    for (const [j, k] of (member(entry, "keys") as JsonValue[]).entries()) {
      const r = importAgentKey(k);
      if (!r.ok) return fail("TRUST_KEY_INVALID", `${r.detail} (${r.code})`, joinPath(at, "keys", j));
      keys.push({ ...r.value, path: joinPath(at, "keys", j) });
    }
    out.set(card, { card, keys, path: at });
  }
  return ok(out);
}
