/**
 * A bag-of-words vector for test embedders: each word hashed to one of `dimensions` dimensions, unit length;
 * texts sharing words are near. Another `salt` hashes words elsewhere: another model of the same width.
 */
export function hashVector(text: string, dimensions = 64, salt = 0): Float32Array {
  const v = new Float32Array(dimensions);
  for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    let h = 2166136261 ^ salt;
    for (const ch of word) h = Math.imul(h ^ (ch.codePointAt(0) as number), 16777619);
    const at = (h >>> 0) % dimensions;
    v[at] = (v[at] as number) + 1;
  }
  let norm = 0;
  for (const x of v) norm += x * x;
  if (norm === 0) v[0] = 1;
  else for (let i = 0; i < dimensions; i++) v[i] = (v[i] as number) / Math.sqrt(norm);
  return v;
}
