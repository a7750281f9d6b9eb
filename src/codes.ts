/**
 * Every stable failure code, in one union, so callers and tests can narrow with `switch (code)`.
 * Each area declares its own list next to its code; this file only gathers them.
 */
import { JSON_CODES } from "./json/codes.js";
import { CANON_CODES } from "./canon/codes.js";
import { COSE_CODES } from "./cose/codes.js";
import { LOG_CODES } from "./log/codes.js";
import { AAC_CODES } from "./aac/codes.js";
import { INPUT_CODES } from "./input/codes.js";
import { TRUST_CODES } from "./trust/codes.js";

export const FAILURE_CODES = [...JSON_CODES, ...CANON_CODES, ...COSE_CODES, ...LOG_CODES, ...AAC_CODES, ...INPUT_CODES, ...TRUST_CODES] as const;

export type FailureCode = (typeof FAILURE_CODES)[number];
