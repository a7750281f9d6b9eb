/**
 * The input shapes a verifier is handed (contract.md §3, a2a-wire.md §2): the GetTask JSON-RPC
 * response (default), the bare Task of a REST GetTask, the stream wrapper `{"task": …}`, or a
 * client's capture `{firstTask, finalTask}`. Only the capture carries the first Task, so only it
 * lets the negotiation be checked end to end.
 */
import type { JsonObject } from "../src/json/value.js";
import { copyObject, jsonObject } from "./json-text.js";
import type { Envelope } from "./options.js";

export function getTaskResponse(id: number | string, finalTask: JsonObject): JsonObject {
  return jsonObject({ id, jsonrpc: "2.0", result: copyObject(finalTask) });
}

/**
 * The input in its envelope. A capture also carries the interim bundles the client kept from the
 * paused Task (docs/profile.md: the terminal Task replaces the evidence Artifact they came in).
 */
export function wrapInput(
  envelope: Envelope,
  jsonRpcId: number | string,
  firstTask: JsonObject,
  finalTask: JsonObject,
  interimBundles: readonly JsonObject[] = [],
): JsonObject {
  switch (envelope) {
    case "jsonrpc":
    case "paused":
      return getTaskResponse(jsonRpcId, finalTask);
    case "task":
      return copyObject(finalTask);
    case "stream":
      return jsonObject({ task: copyObject(finalTask) });
    case "capture":
      return jsonObject({
        finalTask: copyObject(finalTask),
        firstTask: copyObject(firstTask),
        ...(interimBundles.length > 0 ? { interimBundles: interimBundles.map(copyObject) } : {}),
      });
  }
}
