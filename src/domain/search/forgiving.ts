// Forgiving words (issue #46, docs/search.md "Relevance"): the other spellings a name query is
// also tried with, ranked below what it finds as typed.
// - Joined and split words: two adjacent query words also as the one word they make ("FIT LAB" →
//   `fitlab`), and a word as two ("FITLAB" → `fit lab`), when the vocabulary holds the result;
//   letters and digits run together split where they meet.
// - Corrections: a word of CORRECT_MIN letters or more that the vocabulary does not hold (or,
//   when the query as typed finds nothing and holds no such word, any word) also as the vocabulary's words one
//   edit away (insert, delete, substitute, swap two neighbours); from TWO_EDITS_MIN letters, two
//   edits away too when none is one edit away. One edit is found by looking every edit up in the vocabulary (~600 words for
//   8 letters, one statement per part); two edits by measuring the vocabulary's words that share
//   the first two letters and are within two letters of the length (at most NEAR_SCAN per
//   part): a second typo in the first two letters is not found. A deletion table in the style of
//   SymSpell would find those too, at the price of every vocabulary word's deletions written at
//   each import (several per word, two edits ~40 per word); the vocabulary's own order gives the
//   rest for nothing, and is the table the index already keeps.
// Each spelling is a list of words: the variants of a query, the typed one first.
import type { Statements } from './index-tables.ts';

export const CORRECT_MIN = 5;
/** A word this long or longer is also tried as two (each half 2 letters or more). */
export const SPLIT_MIN = 6;
export const TWO_EDITS_MIN = 8;
/** Vocabulary words measured per part for two edits. */
export const NEAR_SCAN = 20_000;
/** Corrections kept per word (the most frequent first). */
export const CORRECTIONS_PER_WORD = 3;
/** Spellings tried at most, the typed one included. */
export const MAX_SPELLINGS = 8;
const LETTERS = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** The words one edit away from `w` (optimal string alignment: a swap of neighbours is one edit). */
export function oneEdit(w: string): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i <= w.length; i++) {
    const head = w.slice(0, i);
    const tail = w.slice(i);
    if (tail.length) out.add(head + tail.slice(1));
    if (tail.length > 1) out.add(head + tail[1] + tail[0] + tail.slice(2));
    for (const c of LETTERS) {
      if (tail.length && c !== tail[0]) out.add(head + c + tail.slice(1));
      out.add(head + c + tail);
    }
  }
  out.delete(w);
  return out;
}

/** Optimal string alignment distance, or `max + 1` once it is sure to exceed `max`. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2] + 1);
      row.push(d);
      if (d < best) best = d;
    }
    if (best > max) return max + 1;
    prev2 = prev;
    prev = row;
  }
  return prev[b.length];
}

/** The vocabulary as the forgiving rules read it: establishments holding each word, over every part. */
export class WordCounts {
  constructor(private readonly st: Statements) {}

  /** Documents of each word that some part holds (absent words are left out). */
  docs(words: Iterable<string>): Map<string, number> {
    const list = [...new Set(words)];
    const found = new Map<string, number>();
    for (let at = 0; at < list.length; at += 900) {
      const chunk = list.slice(at, at + 900);
      for (const p of this.st.files.parts) {
        const sql = `SELECT term, est_docs FROM ${p}.vocabulary WHERE term IN (${chunk.map(() => '?').join(', ')})`;
        for (const [t, n] of this.st
          .get(sql)
          .raw()
          .all(...chunk) as [string, number][])
          found.set(t, (found.get(t) ?? 0) + n);
      }
    }
    return found;
  }

  /** Words within two edits of `w` sharing its first two letters (NEAR_SCAN per part at most). */
  near(w: string): Map<string, number> {
    const start = w.slice(0, 2);
    const found = new Map<string, number>();
    for (const p of this.st.files.parts) {
      const sql = `SELECT term, est_docs FROM ${p}.vocabulary WHERE term >= ? AND term < ? AND length(term) BETWEEN ? AND ? LIMIT ${NEAR_SCAN}`;
      const rows = this.st
        .get(sql)
        .raw()
        .all(start, `${start}{`, w.length - 2, w.length + 2) as [string, number][];
      for (const [t, n] of rows) if (t !== w && editDistance(w, t, 2) <= 2) found.set(t, (found.get(t) ?? 0) + n);
    }
    return found;
  }
}

const byDocs = (m: Map<string, number>) => [...m.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));

/** Corrections of one word, the most frequent first: one edit, else (long words) two. */
export function correctionsOf(w: string, vocabulary: WordCounts): string[] {
  if (w.length < CORRECT_MIN || !/^[a-z]/.test(w)) return [];
  const one = byDocs(vocabulary.docs(oneEdit(w))).map(([t]) => t);
  // Two edits only when one finds nothing: the scan costs tens of ms on a full month's vocabulary.
  const two =
    w.length >= TWO_EDITS_MIN && !one.length
      ? byDocs(vocabulary.near(w))
          .map(([t]) => t)
          .filter((t) => !one.includes(t))
      : [];
  return [...one, ...two].slice(0, CORRECTIONS_PER_WORD);
}

/**
 * The other spellings of `words` (the query's core words), in the order they rank: joins, splits,
 * then corrections. `correctAll`: the query as typed found nothing, so known words are corrected too.
 */
export function spellings(words: readonly string[], vocabulary: WordCounts, correctAll: boolean): string[][] {
  const out: string[][] = [];
  const seen = new Set([words.join(' ')]);
  const push = (v: string[]) => {
    const k = v.join(' ');
    if (!seen.has(k) && out.length < MAX_SPELLINGS - 1) {
      seen.add(k);
      out.push(v);
    }
  };
  const joins = words.slice(1).map((w, i) => words[i] + w);
  const splits = words.flatMap((w) =>
    w.length >= SPLIT_MIN ? Array.from({ length: w.length - 3 }, (_, i) => [w.slice(0, i + 2), w.slice(i + 2)]) : [],
  );
  const known = vocabulary.docs([...words, ...joins, ...splits.flat()]);
  joins.forEach((j, i) => {
    if (known.has(j)) push([...words.slice(0, i), j, ...words.slice(i + 2)]);
  });
  words.forEach((w, i) => {
    // Letters then digits (or the reverse) split where they meet: the vocabulary holds no
    // number (a CPF after a MEI's name, "CAMPOS51393792790").
    const m = /^([a-z]+)([0-9]+)$|^([0-9]+)([a-z]+)$/.exec(w);
    if (m !== null) push([...words.slice(0, i), m[1] ?? m[3], m[2] ?? m[4], ...words.slice(i + 1)]);
  });
  words.forEach((w, i) => {
    // The split whose rarer half is the most common.
    let best: [string, string] | null = null;
    let score = 0;
    for (const [a, b] of splits.filter(([a, b]) => a + b === w)) {
      const s = Math.min(known.get(a) ?? 0, known.get(b) ?? 0);
      if (s > score) [best, score] = [[a, b], s];
    }
    if (best !== null) push([...words.slice(0, i), ...best, ...words.slice(i + 1)]);
  });
  // A word the vocabulary lacks is what to correct; only when every word is known (the typo made
  // another real word) are the known ones corrected too: each costs its lookups (two edits: a scan).
  const unknown = words.some((w) => !known.has(w));
  const fixes = words.map((w) => (!known.has(w) || (correctAll && !unknown) ? correctionsOf(w, vocabulary) : []));
  // Every word at its best correction at once, then each correction alone.
  if (fixes.filter((f) => f.length).length > 1) push(words.map((w, i) => fixes[i][0] ?? w));
  fixes.forEach((f, i) => {
    for (const c of f) push([...words.slice(0, i), c, ...words.slice(i + 1)]);
  });
  return out;
}
