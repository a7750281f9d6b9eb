/**
 * Every stable failure code, in one union, so callers and tests can narrow with `switch (code)`.
 * Each area declares its own list next to its code; this file only gathers them.
 */
import { JSON_CODES } from "./json/codes.js";

export const FAILURE_CODES = [...JSON_CODES] as const;

export type FailureCode = (typeof FAILURE_CODES)[number];
