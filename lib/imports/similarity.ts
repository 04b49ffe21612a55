// How alike two row texts are, for the "looks like an edited copy" rule (lib/imports/classify.ts), at a bounded cost.

/** Texts are compared on their first 1,000 characters (code points). */
const COMPARED_CHARS = 1000;

/** A text as the rule compares it: its first 1,000 code points (compute once, compare many times). */
export const codePoints = (text: string) =>
  Int32Array.from([...text.slice(0, COMPARED_CHARS)], (c) => c.codePointAt(0)!);

/**
 * How alike two texts are, 0–1 (1 − edit distance / the longer length, on their first 1,000 characters), when
 * at least `min`, else null — without the full edit-distance table: past their common prefix and suffix, the
 * distance is computed in a diagonal band that doubles until it holds the distance or passes the most `min`
 * allows, so near-identical texts cost length × a few cells, and two 280-character texts at most 280 × 225.
 */
export function similarityAtLeast(a: string | Int32Array, b: string | Int32Array, min: number): number | null {
  const x = typeof a === 'string' ? codePoints(a) : a;
  const y = typeof b === 'string' ? codePoints(b) : b;
  const longer = Math.max(x.length, y.length);
  if (longer === 0) return 1;
  let allowed = Math.floor(longer * (1 - min)) + 1; // the largest distance that still scores at least `min`
  while (allowed >= 0 && 1 - allowed / longer < min) allowed--;
  if (allowed < 0) return null;
  // A common prefix and suffix never change the distance: an edited copy is mostly both.
  let from = 0;
  while (from < x.length && from < y.length && x[from] === y[from]) from++;
  let xEnd = x.length;
  let yEnd = y.length;
  while (xEnd > from && yEnd > from && x[xEnd - 1] === y[yEnd - 1]) {
    xEnd--;
    yEnd--;
  }
  const xs = x.subarray(from, xEnd);
  const ys = y.subarray(from, yEnd);
  for (let band = Math.min(allowed, 8); ; band = Math.min(allowed, band * 2)) {
    const distance = bandedDistance(xs, ys, band);
    if (distance <= band) return 1 - distance / longer;
    if (band === allowed) return null;
  }
}

/**
 * Levenshtein distance of x and y when it is at most `band`, else band + 1 (Ukkonen: only cells within `band`
 * of the diagonal can lie on such a path, and a row whose cells all exceed `band` ends the search).
 */
export function bandedDistance(x: Int32Array, y: Int32Array, band: number): number {
  const n = x.length;
  const m = y.length;
  const over = band + 1;
  if (Math.abs(n - m) > band) return over;
  let previous = new Int32Array(m + 2);
  let current = new Int32Array(m + 2);
  for (let j = 0; j <= m + 1; j++) previous[j] = j <= band ? j : over;
  for (let i = 1; i <= n; i++) {
    const from = Math.max(1, i - band);
    const to = Math.min(m, i + band);
    current[from - 1] = from === 1 && i <= band ? i : over;
    let rowMin = current[from - 1]!;
    const xi = x[i - 1];
    for (let j = from; j <= to; j++) {
      let value = previous[j - 1]! + (xi === y[j - 1] ? 0 : 1);
      const up = previous[j]! + 1;
      const left = current[j - 1]! + 1;
      if (up < value) value = up;
      if (left < value) value = left;
      if (value > over) value = over;
      current[j] = value;
      if (value < rowMin) rowMin = value;
    }
    current[to + 1] = over; // the next row reads one cell beyond this band
    if (rowMin > band) return over;
    [previous, current] = [current, previous];
  }
  return Math.min(previous[m]!, over);
}

/** A text's character trigrams, hashed and sorted: what `trigramOverlap` ranks candidates by. */
export function trigramProfile(text: string | Int32Array): Int32Array {
  const x = typeof text === 'string' ? codePoints(text) : text;
  const grams = new Int32Array(Math.max(0, x.length - 2));
  for (let i = 0; i < grams.length; i++)
    grams[i] = Math.imul(Math.imul(x[i]!, 0x01000193) ^ x[i + 1]!, 0x01000193) ^ x[i + 2]!;
  return grams.sort();
}

/** Dice coefficient of two trigram profiles (multisets), 0–1: cheap, so every candidate can be ranked by it. */
export function trigramOverlap(a: Int32Array, b: Int32Array): number {
  if (a.length + b.length === 0) return 1;
  let common = 0;
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    if (a[i] === b[j]) {
      common++;
      i++;
      j++;
    } else if (a[i]! < b[j]!) i++;
    else j++;
  }
  return (2 * common) / (a.length + b.length);
}
