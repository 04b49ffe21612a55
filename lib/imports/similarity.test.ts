import { describe, expect, it } from 'vitest';
import { similarityAtLeast, trigramOverlap, trigramProfile } from './similarity';

/** The full edit-distance table, as the rule was first computed: the reference the banded one must equal. */
function fullSimilarity(a: string, b: string): number {
  const x = [...a.slice(0, 1000)];
  const y = [...b.slice(0, 1000)];
  if (x.length === 0 && y.length === 0) return 1;
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const current = [i];
    for (let j = 1; j <= y.length; j++)
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
    previous = current;
  }
  return 1 - previous[y.length]! / Math.max(x.length, y.length);
}

// A seeded generator: the same pairs on every run.
let seed = 212;
const random = () => (seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0) / 2 ** 32;
const pick = (alphabet: string[]) => alphabet[Math.floor(random() * alphabet.length)]!;

/** A text, and an edit of it: a few to many characters changed, inserted or deleted. */
function pair(alphabet: string[]): [string, string] {
  const a = Array.from({ length: Math.floor(random() * 60) }, () => pick(alphabet));
  const b = [...a];
  for (let edits = Math.floor(random() * 30); edits > 0; edits--) {
    const at = Math.floor(random() * (b.length + 1));
    const kind = random();
    if (kind < 0.34) b.splice(at, 1);
    else if (kind < 0.67) b.splice(at, 0, pick(alphabet));
    else b[at] = pick(alphabet);
  }
  return [a.join(''), b.join('')];
}

describe('the edited-copy similarity at a bounded cost', () => {
  it('equals the full edit distance whenever it reaches the threshold, and answers null below it', () => {
    const alphabets = [
      ['a', 'b'],
      ['a', 'b', 'c', 'd', ' '],
      ['é', 'e', '😀', 'x'],
    ];
    let atLeast = 0;
    for (let i = 0; i < 3000; i++) {
      const [a, b] = pair(alphabets[i % alphabets.length]!);
      for (const min of [0.6, 0.3, 0.9]) {
        const full = fullSimilarity(a, b);
        const banded = similarityAtLeast(a, b, min);
        if (full >= min) {
          atLeast++;
          expect(banded, `${JSON.stringify([a, b, min])}`).toBeCloseTo(full, 12);
        } else expect(banded, `${JSON.stringify([a, b, min])}`).toBeNull();
      }
    }
    expect(atLeast).toBeGreaterThan(1000); // both sides of the threshold were exercised
    expect(similarityAtLeast('', '', 0.6)).toBe(1);
    expect(similarityAtLeast('abc', '', 0.6)).toBeNull();
    expect(similarityAtLeast('x'.repeat(1200), `${'x'.repeat(1000)}yy`, 0.6)).toBe(1); // the first 1,000 characters
  });

  it('ranks by trigram overlap: an edit of a text shares more trigrams with it than another text', () => {
    const text = trigramProfile('Our spring sale starts on Monday: 20% off everything');
    expect(trigramOverlap(text, trigramProfile('Our spring sale starts on Monday: 20% off everything'))).toBe(1);
    const edit = trigramOverlap(text, trigramProfile('Our spring sale starts on Tuesday: 25% off everything'));
    const other = trigramOverlap(text, trigramProfile('The webinar recording is online now, link in bio'));
    expect(edit).toBeGreaterThan(other);
    expect(trigramOverlap(trigramProfile(''), trigramProfile(''))).toBe(1);
  });
});
