/**
 * Nesting cap for every canonicalizer. The strict parser already caps input at a lower depth;
 * this bound protects values built in code and keeps recursion far from the stack limit.
 */
export const CANON_MAX_DEPTH = 256;
