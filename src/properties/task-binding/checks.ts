/** taskBinding's check ids, declared once: each part of the property builds its checks from these. */
import { checksFor, type IdOf } from "../shared/checks.js";

export const CHECKS = checksFor([
  "task.observed",
  "task.id",
  "task.contextId",
  "task.terminalState",
  "task.authority",
  "task.tenant",
  "artifacts.unambiguous",
  "artifact.binding",
  "artifacts.coverage",
  "transcript.unambiguous",
  "transcript.sequence",
  "transcript.message",
  "transcript.statusMessage",
  "transcript.firstTask",
  "transcript.request",
  "transcript.unobserved",
  "transcript.transition",
  "transcript.resumption",
  "parts.count",
  "parts.kind",
  "parts.digest",
  "parts.url",
  "parts.missing",
  "stream.replaced",
  "protobuf.unknownField",
  "interim.cited",
  "interim.prefix",
  "interim.observed",
  "trace.digest",
]);
export const { check, only } = CHECKS;
export type CheckId = IdOf<typeof CHECKS>;
