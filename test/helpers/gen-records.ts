// Deterministic generators of registry-shaped CSV (Latin-1, `;`, all fields quoted) for tests and benches.
import { Rng } from '../../src/demo/prng.ts';

/** Reproducible randomness from a seed: the demo generator's PRNG, as a plain function. */
export function rng(seed: number): () => number {
  const r = new Rng(seed);
  return () => r.next();
}

const WORDS = [
  'COMERCIO',
  'LTDA',
  'SERVICOS',
  'RUA',
  'AVENIDA',
  'CENTRO',
  'JARDIM',
  'SAO',
  'PAULO',
  'BRASILIA',
  'CONSTRUTORA',
  'ME',
  'EIRELI',
  'DISTRIBUIDORA',
  'SALA',
  'ANDAR',
  'BLOCO',
];

function digits(r: () => number, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += String.fromCharCode(48 + Math.floor(r() * 10));
  return s;
}
function words(r: () => number, max: number): string {
  const n = Math.floor(r() * max);
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(WORDS[Math.floor(r() * WORDS.length)]);
  return out.join(' ');
}

/** One realistic Estabelecimentos row (30 fields, ~260 bytes) as an array of field values. */
export function estabelecimentoFields(r: () => number): string[] {
  return [
    digits(r, 8),
    digits(r, 4),
    digits(r, 2),
    r() < 0.8 ? '1' : '2',
    words(r, 3),
    '0' + Math.floor(1 + r() * 8),
    '20' + digits(r, 6),
    '00',
    '',
    '',
    '19' + digits(r, 6),
    digits(r, 7),
    r() < 0.5 ? '' : `${digits(r, 7)},${digits(r, 7)},${digits(r, 7)}`,
    'RUA',
    words(r, 4) || 'XV DE NOVEMBRO',
    digits(r, 3),
    r() < 0.3 ? 'SALA 1' : '',
    words(r, 2) || 'CENTRO',
    digits(r, 8),
    'SP',
    digits(r, 4),
    digits(r, 2),
    digits(r, 8),
    '',
    '',
    '',
    '',
    r() < 0.4 ? 'contato@empresa.com.br' : '',
    '',
    '',
  ];
}

export function toLine(fields: string[]): string {
  return '"' + fields.join('";"') + '"\n';
}

/** ~rows × 260 bytes of Estabelecimentos-like Latin-1 CSV. */
export function generateEstabelecimentos(rows: number, seed = 1): Buffer {
  const r = rng(seed);
  const parts: string[] = [];
  let acc = '';
  for (let i = 0; i < rows; i++) {
    acc += toLine(estabelecimentoFields(r));
    if (acc.length > 1 << 20) {
      parts.push(acc);
      acc = '';
    }
  }
  parts.push(acc);
  return Buffer.concat(parts.map((p) => Buffer.from(p, 'latin1')));
}
