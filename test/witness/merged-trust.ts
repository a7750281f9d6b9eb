/** One trust file for several exchanges built with producer/: their producers, and each service and witness once. */
import type { JsonObject, JsonValue } from "../../src/json/value.js";
import type { Exchange } from "../../producer/exchange.js";

export function mergedTrust(...all: Exchange[]): JsonValue {
  const list = (name: string) => all.flatMap((e) => (e.trust[name] as JsonObject[] | undefined) ?? []);
  const once = (items: JsonObject[], key: string) => [...new Map(items.map((x) => [String(x[key]), x])).values()];
  return {
    ...(all[0] as Exchange).trust,
    producers: list("producers"),
    transparencyServices: once(list("transparencyServices"), "url"),
    ...(list("witnesses").length > 0 ? { witnesses: once(list("witnesses"), "name") } : {}),
  };
}
