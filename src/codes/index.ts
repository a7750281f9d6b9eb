/**
 * Every stable failure code, in one union, so callers and tests can narrow with `switch (code)`.
 * Each area has its own list in this folder; this file only gathers them. The lists sit here,
 * below every area, so that an area importing `Result` never imports another area.
 */
import { JSON_CODES } from "./json.js";
import { CANON_CODES } from "./canon.js";
import { COSE_CODES } from "./cose.js";
import { LOG_CODES } from "./log.js";
import { AAC_CODES } from "./aac.js";
import { INPUT_CODES } from "./input.js";
import { TRUST_CODES } from "./trust.js";
import { NET_CODES } from "./net.js";
import { CARD_CODES } from "./card.js";
import { PEAC_CODES } from "./peac.js";
import { WITNESS_CODES } from "./witness.js";
import { PARTS_CODES } from "./parts.js";
import { KEY_WINDOW_CODES } from "./keys.js";

export const FAILURE_CODES = [
  ...JSON_CODES,
  ...CANON_CODES,
  ...COSE_CODES,
  ...LOG_CODES,
  ...AAC_CODES,
  ...INPUT_CODES,
  ...TRUST_CODES,
  ...NET_CODES,
  ...CARD_CODES,
  ...PEAC_CODES,
  ...WITNESS_CODES,
  ...PARTS_CODES,
  ...KEY_WINDOW_CODES,
] as const;

export type FailureCode = (typeof FAILURE_CODES)[number];
