/**
 * A list of one to four parts given to `sha256` or `sha256Hex`, each arity's call spelled out: the
 * parameters are fixed, so a list cannot be spread into them.
 */
type OfParts<T> = (a: Uint8Array, b?: Uint8Array, c?: Uint8Array, d?: Uint8Array) => T;

export function hashParts<T>(f: OfParts<T>, parts: readonly Uint8Array[]): T {
  const [a, b, c, d] = parts;
  if (a === undefined || parts.length > 4) throw new Error(`one to four parts, got ${parts.length}`);
  switch (parts.length) {
    case 1:
      return f(a);
    case 2:
      return f(a, b);
    case 3:
      return f(a, b, c);
    default:
      return f(a, b, c, d);
  }
}
