/**
 * "Did you mean …": the closest candidate by edit distance (adjacent swaps count as one edit,
 * as commander's own suggestions do), or nothing when no candidate is close enough.
 */
export function suggestSimilar(word: string, candidates: readonly string[]): string | undefined {
  const target = word.toLowerCase();
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const distance = editDistance(target, candidate.toLowerCase());
    // Close enough: at most 40 % of the word changed (and never a whole short word).
    const limit = Math.max(1, Math.floor(Math.max(target.length, candidate.length) * 0.4));
    if (distance <= limit && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** Optimal string alignment distance (Levenshtein plus transpositions). */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number) => d[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, at(i - 2, j - 2) + 1);
      }
      (d[i] as number[])[j] = value;
    }
  }
  return at(rows - 1, cols - 1);
}
