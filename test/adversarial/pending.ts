/**
 * Adversarial cases the verifier does not pass yet, each with the contract rule it breaks. The
 * suite skips exactly these, with a SKIPPED line on stderr; remove a name once its fix lands and
 * the case runs again. pending.test.ts keeps the list honest: every name is a case, under its rule.
 */
export const PENDING_FIXES: Readonly<Record<string, string>> = {
  // The verifier no longer treats the Artifact as evidence, but then finds no bundle at all and
  // exits 2 (INPUT_NO_EVIDENCE); the contract makes it content the payload must commit: a FAIL.
  "text part beside the bundle":
    "§9.12 (an extra part makes the evidence Artifact content: taskBinding FAIL, not exit 2)",
  // Only the first evidence Artifact's reference metadata is compared.
  "second evidence artifact with a disagreeing reference": "§9.12 (each evidence Artifact's reference is compared)",
  // --task's Task is read for a second bundle, but its evidence Artifact's reference is not compared.
  "task whose evidence artifact reference disagrees": "§9.16 (--task's evidence references are compared)",
  // MAX_NARROWING_WORK counts JSON nodes, not bytes: one long string and eight widened unsafe
  // integers make 256 full re-hashes of the payload (about 10 s for an 800 kB input).
  "widened integers over a long payload": "§9.20 (narrowing work bounded by bytes, not only by JSON nodes)",
};
