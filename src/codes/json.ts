/** Failure codes of the strict JSON parser. */
export const JSON_CODES = [
  "JSON_SYNTAX",
  "JSON_TRAILING_DATA",
  "JSON_DUPLICATE_MEMBER",
  "JSON_LOSSY_NUMBER",
  "JSON_INVALID_UTF8",
  "JSON_LONE_SURROGATE",
  "JSON_CONTROL_CHARACTER",
  "JSON_TOO_DEEP",
  "JSON_TOO_LARGE",
] as const;
export type JsonCode = (typeof JSON_CODES)[number];
