// The name prefix terms of one establishment's document (domain/search/terms.ts: `_wbra` for a
// name word BRASIL): the first NAME_PREFIX_LENGTH characters of each word of its razão social and
// nome fantasia that starts with a letter and is at least that long. The words are the ones the
// document holds: as the FTS `ascii` tokenizer splits a plain-ASCII name without `_` (runs of
// letters and digits, lowercased), else as normalizeText (the two agree on such names:
// test/domain/search/words.test.ts).
//
// Runs for every establishment, so a scan of char codes writing bytes into one buffer: split,
// lowercase and string concatenation cost more than twice as much a row on real names
// (docs/benchmarks.md).
import { normalizeText } from '../../src/domain/search/normalize.ts';
import { MARK, NAME_PREFIX_LENGTH } from '../../src/domain/search/terms.ts';

/** 0 for a separator, 1 for a digit, 2 for a lowercase letter, 3 for an uppercase one; 4 for what needs normalizeText (`_`, not ASCII). */
const KIND = new Uint8Array(65536).fill(4);
for (let c = 0; c < 128; c++) KIND[c] = 0;
for (let c = 48; c <= 57; c++) KIND[c] = 1;
for (let c = 97; c <= 122; c++) KIND[c] = 2;
for (let c = 65; c <= 90; c++) KIND[c] = 3;
KIND[95] = 4;

const TERM = Buffer.from(` ${MARK.namePrefix}`, 'latin1');
const TERM_BYTES = TERM.length + NAME_PREFIX_LENGTH;
const out = Buffer.alloc(64 * 1024);

/** ` _wbra _wcom …` (a leading space each, duplicates kept: FTS5 stores a term once per document). */
export function namePrefixTerms(razaoSocial: unknown, nomeFantasia: unknown): string {
  return out.toString('latin1', 0, add(nomeFantasia, add(razaoSocial, 0)));
}

function add(name: unknown, o: number): number {
  if (typeof name !== 'string' || name === '') return o;
  const end = scan(name, o);
  return end >= 0 ? end : normalised(name, o);
}

/** Writes the terms of a plain name from `o`; returns the new end, or -1 when the name needs normalizeText. */
function scan(name: string, o: number): number {
  const n = name.length;
  let i = 0;
  while (i < n) {
    const first = KIND[name.charCodeAt(i)];
    if (first === 4) return -1;
    if (first === 0) {
      i++;
      continue;
    }
    const start = i;
    let k: number;
    while (i < n && (k = KIND[name.charCodeAt(i)]) !== 0) {
      if (k === 4) return -1;
      i++;
    }
    if (first >= 2 && i - start >= NAME_PREFIX_LENGTH) o = write(name, start, o, true);
  }
  return o;
}

function normalised(name: string, o: number): number {
  for (const w of normalizeText(name).split(' '))
    if (w.length >= NAME_PREFIX_LENGTH && KIND[w.charCodeAt(0)] === 2) o = write(w, 0, o, false);
  return o;
}

function write(word: string, start: number, o: number, lower: boolean): number {
  if (o + TERM_BYTES > out.length) return o; // a name of thousands of words: the rest has no prefix terms
  for (let j = 0; j < TERM.length; j++) out[o + j] = TERM[j];
  for (let j = 0; j < NAME_PREFIX_LENGTH; j++) {
    const c = word.charCodeAt(start + j);
    out[o + TERM.length + j] = lower && c <= 90 && c >= 65 ? c + 32 : c;
  }
  return o + TERM_BYTES;
}
