/**
 * Adversarial cases the verifier does not pass yet, each with the contract rule it breaks. The
 * suite skips exactly these, with a SKIPPED line on stderr; remove a name once its fix lands and
 * the case runs again. pending.test.ts keeps the list honest: every name is a case, under its rule.
 */
export const PENDING_FIXES: Readonly<Record<string, string>> = {};
