/**
 * a2a-evidence as a library: the same report object the CLI prints, from pure functions.
 *
 *   import { verify } from "a2a-evidence";
 *   const report = verify({ inputs: [{ source: "task.json", data: bytes }], trust: trustFileBytes });
 *
 * Only this file is the public API (docs/api.md); everything else is internal.
 */
export { verify, type InputData, type VerifyRequest } from "./verify.js";
export type { VerifyOptions } from "./evidence/context.js";
export {
  DEFAULT_MIN_EVIDENCE,
  combinedExitCode,
  type Policy,
  type PolicyDecision,
  type ExitCode,
  type InputExitCode,
} from "./policy.js";
export {
  loadTrustConfig,
  type TrustConfig,
  type TrustedKey,
  type TrustedService,
  type Operator,
} from "./trust/config.js";
export { parseStrictJson, type JsonLimits } from "./json/strict-json.js";
export { JsonNumber, type JsonValue, type JsonObject } from "./json/value.js";
export { render, FORMAT_NAMES, type FormatName, type Renderer } from "./report/index.js";
export { renderGithubSummary } from "./report/github.js";
export type { RenderOptions } from "./report/options.js";
export { makeStyle, type Style } from "./report/style.js";
export {
  PROPERTY_NAMES,
  STATES,
  isFailedInput,
  type Check,
  type EvidenceLevelReport,
  type FailedInput,
  type InputError,
  type InputReport,
  type PolicyReport,
  type PropertyName,
  type PropertyResult,
  type Properties,
  type Report,
  type State,
  type VerifiedInput,
} from "./report/model.js";
export type { InputShape } from "./input/classify.js";
export { FAILURE_CODES, type FailureCode } from "./codes/index.js";
export {
  EVIDENCE_LEVELS,
  EXTENSION_URI,
  RECORD_PROFILE_V1,
  type EvidenceLevel,
  type EvidenceLevelOrNone,
} from "./profile.js";
export { TOOL_VERSION } from "./version.js";
