/**
 * a2a-evidence for `@a2a-js/sdk` clients (an optional peer dependency):
 *
 *   import { evidenceGate } from "a2a-evidence/a2a-js";
 *   const gate = evidenceGate({ requirement: { minimumEvidence: "EXTERNALLY_REGISTERED" }, trust: trustFileBytes });
 *   const client = await new ClientFactory({ clientConfig: { polling: true, interceptors: [gate] } }).createFromUrl(url);
 *
 * A Task whose evidence does not meet the caller's policy makes the client call reject with an
 * EvidencePolicyError carrying `.reason` and `.report`.
 */
export {
  evidenceGate,
  EvidenceGate,
  EvidencePolicyError,
  SDK_OBJECT_NOTE,
  type EvidenceGateOptions,
  type EvidencePolicyReason,
  type EvidenceRequirement,
} from "./gate.js";
