/**
 * The explanation as JSON, for tools (schemas/inspect.schema.json). Key order is fixed by
 * construction and nothing depends on the clock, so the same input gives the same bytes.
 */
import { printableJson } from "../util/printable.js";
import type { Explanation, PendingExplanation } from "./model.js";

export function renderExplanationJson(e: Explanation | PendingExplanation): string {
  // As the JSON report: C1 controls, line separators and bidirectional overrides are escaped,
  // and parse back to the very same strings.
  return `${printableJson(JSON.stringify(e, null, 2))}\n`;
}
