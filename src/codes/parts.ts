/**
 * Codes of per-Part commitments (spec part-commitments.md): what a Part's commitment leaves
 * unproven. A Part whose commitment does not recompute is a plain FAIL of its check.
 */
export const PARTS_CODES = [
  "PART_NOT_COMMITTED", // a data, raw or url Part of an entry without partCommitments: nothing commits its content
  "PART_URL_NOT_RESOLVED", // a url Part committed NOT_RESOLVED: the content behind the URL was never committed
] as const;
