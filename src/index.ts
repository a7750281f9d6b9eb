/**
 * a2a-evidence as a library: the same report object the CLI prints, from pure functions.
 *
 *   import { verify } from "a2a-evidence";
 *   const report = verify({ inputs: [{ source: "task.json", data: bytes }], trust: trustFileBytes });
 */
export {
  verify,
  verifyInput,
  verifyLoaded,
  resolveTrust,
  achievedLevel,
  inputExitCode,
  combinedExitCode,
  DEFAULT_MIN_EVIDENCE,
  type InputData,
  type Policy,
  type VerifyRequest,
} from "./verify.js";
export { loadTrustConfig, type TrustConfig, type TrustedKey, type TrustedService, type Operator } from "./trust/config.js";
export { loadInput, type LoadedInput, type LocatedBundle, type Carrier, type InputShape } from "./input/load.js";
export { parseStrictJson, type JsonLimits } from "./json/strict-json.js";
export { JsonNumber, type JsonValue, type JsonObject } from "./json/value.js";
export { renderJson } from "./report/json.js";
export { renderText } from "./report/text.js";
export { makeStyle } from "./report/style.js";
export * from "./report/model.js";
export { FAILURE_CODES, type FailureCode } from "./codes/index.js";
export { EVIDENCE_LEVELS, EXTENSION_URI, RECORD_PROFILE_V1, type EvidenceLevel, type EvidenceLevelOrNone } from "./profile.js";
export { TOOL_VERSION } from "./version.js";
