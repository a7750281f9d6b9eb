/**
 * Which A2A interface `fetch` calls: `--url` with `--binding`, or an Agent Card's
 * `supportedInterfaces` (`--card`).
 *
 * From a card, the interfaces are taken in the card's order (A2A v1.0: the first is preferred;
 * never the highest version, as one SDK does): the first A2A 1.x JSONRPC, HTTP+JSON or GRPC
 * interface whose URL fetch can call exactly as `--url` with that binding would (JSON-RPC and
 * HTTP+JSON: an absolute http(s) URL; GRPC: `host:port`, or `http(s)://host:port`, no path) is
 * called, over the binding it names and no other. With `--binding`, only that binding's interfaces
 * are considered. Each interface passed over before it is named with the reason, and the one
 * called is named, so the caller always sees which interface and binding were used.
 */
import { parseStrictJson } from "../json/strict-json.js";
import { isJsonObject, member, type JsonValue } from "../json/value.js";
import type { Binding, Endpoint } from "../net/a2a.js";
import { readInput } from "./read.js";

/** A usage error of `fetch`: one line on stderr, exit 2. */
export class FetchUsage extends Error {}

export const BINDINGS: Readonly<Record<string, Binding>> = { jsonrpc: "jsonrpc", rest: "rest", grpc: "grpc" };
/** Agent Card protocolBinding names (a2a-wire.md §2) for the three bindings fetch speaks. */
const CARD_BINDINGS: Readonly<Record<string, Binding>> = { JSONRPC: "jsonrpc", "HTTP+JSON": "rest", GRPC: "grpc" };
const CARD_NAMES: Readonly<Record<Binding, string>> = { jsonrpc: "JSONRPC", rest: "HTTP+JSON", grpc: "GRPC" };

export function parseUrl(text: string, where: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new FetchUsage(`${where}: "${text}" is not an absolute URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new FetchUsage(`${where}: only http and https URLs are fetched, not ${url.protocol}`);
  // Credentials in a URL end up in logs and in the sidecar: pass them with --header instead.
  if (url.username !== "" || url.password !== "")
    throw new FetchUsage(`${where}: a URL with credentials is refused; send them with --header`);
  return url;
}

/**
 * A gRPC target: `http://host:port` (cleartext HTTP/2), `https://host:port`, or a bare `host:port`
 * as Agent Cards list gRPC interfaces (TLS). The gRPC method path is fixed, so no path is allowed.
 */
function parseGrpcTarget(text: string, where: string): URL {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`;
  const url = parseUrl(withScheme, where);
  if ((url.pathname !== "/" && url.pathname !== "") || url.search !== "" || url.hash !== "")
    throw new FetchUsage(`${where}: a gRPC target is host:port (or http://host:port for cleartext), not "${text}"`);
  return url;
}

/** The URL `text` names for `binding`, as `--url` takes it; a usage error when fetch cannot call it. */
export const target = (text: string, binding: Binding, where: string): URL =>
  binding === "grpc" ? parseGrpcTarget(text, where) : parseUrl(text, where);

/** The interface chosen from a card, and what the caller is told about the choice (stderr lines). */
export interface CardChoice {
  readonly endpoint: Endpoint;
  /** `supportedInterfaces[i]`: the entry called. */
  readonly entry: string;
  /** One line for each interface passed over before it (and why), then one naming the one called. */
  readonly lines: readonly string[];
}

type Reading =
  { readonly endpoint: Endpoint; readonly what: string } | { readonly skip: string; readonly what: string };

/** One `supportedInterfaces` entry: the endpoint fetch would call, or why it cannot be called. */
function readInterface(entry: JsonValue | undefined, where: string): Reading {
  if (!isJsonObject(entry)) return { what: where, skip: "not an object" };
  const name = member(entry, "protocolBinding");
  const version = member(entry, "protocolVersion");
  const url = member(entry, "url");
  const what = `${where} (${typeof name === "string" ? name : "no protocolBinding"}${typeof version === "string" ? ` ${version}` : ""})`;
  const kind = typeof name === "string" ? CARD_BINDINGS[name] : undefined;
  if (kind === undefined) return { what, skip: "fetch speaks JSONRPC, HTTP+JSON and GRPC only" };
  if (typeof version !== "string" || !/^1\.\d+$/.test(version))
    return { what, skip: "not A2A 1.x (protocolVersion Major.Minor, 1.x)" };
  if (typeof url !== "string") return { what, skip: "no url" };
  let parsed: URL;
  try {
    parsed = target(url, kind, "url");
  } catch (e) {
    if (!(e instanceof FetchUsage)) throw e;
    return { what, skip: e.message };
  }
  const tenant = member(entry, "tenant");
  return {
    what,
    endpoint: { url: parsed, binding: kind, ...(typeof tenant === "string" && tenant !== "" ? { tenant } : {}) },
  };
}

/** The interface to call from the Agent Card at `path`: the first one fetch can call, in the card's order. */
export async function endpointFromCard(path: string, binding: Binding | undefined): Promise<CardChoice> {
  const read = await readInput(path);
  if (!read.ok) throw new FetchUsage(`--card: ${read.message}`);
  const parsed = parseStrictJson(read.bytes);
  if (!parsed.ok)
    throw new FetchUsage(
      `--card: ${path} is not strict JSON: ${parsed.detail}${parsed.path ? ` (at ${parsed.path})` : ""}`,
    );
  const interfaces = isJsonObject(parsed.value) ? member(parsed.value, "supportedInterfaces") : undefined;
  if (!Array.isArray(interfaces))
    throw new FetchUsage(`--card: ${path} has no supportedInterfaces (not an A2A v1.0 Agent Card)`);
  const skipped: string[] = [];
  for (const [i, entry] of interfaces.entries()) {
    const where = `supportedInterfaces[${i}]`;
    // With --binding, another binding's interface is not a candidate: nothing to report about it.
    const named = isJsonObject(entry) ? CARD_BINDINGS[String(member(entry, "protocolBinding"))] : undefined;
    if (binding !== undefined && named !== binding) continue;
    const r = readInterface(entry, where);
    if ("skip" in r) {
      skipped.push(`${r.what}: ${r.skip}`);
      continue;
    }
    const { url, tenant } = r.endpoint;
    const used = `--card: calling ${r.what} at ${url.href} over ${r.endpoint.binding}${tenant !== undefined ? `, tenant ${tenant}` : ""}`;
    return { endpoint: r.endpoint, entry: where, lines: [...skipped.map((s) => `--card: passed over ${s}`), used] };
  }
  const wanted = binding ? CARD_NAMES[binding] : "JSONRPC, HTTP+JSON or GRPC";
  throw new FetchUsage(
    `--card: ${path} lists no A2A 1.x ${wanted} interface fetch can call${skipped.length > 0 ? ` (${skipped.join("; ")})` : ""}`,
  );
}
