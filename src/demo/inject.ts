// Where the quirks land on the clean records of one company: each mutation in place, in a fixed
// order (the quirk stream's draws depend on it). Each function says whether the record changed.

import type { Company } from './company.ts';
import type { Quirks } from './quirks.ts';

/** The Empresas row `e` of company `c`. */
export function injectEmpresa(q: Quirks, e: string[], c: Company): boolean {
  const base = c.base;
  let dirty = false;
  if (q.fire('backslashBeforeQuote', base)) {
    e[1] += '\\';
    dirty = true;
  }
  if (q.fire('trailingSpaces', base)) {
    e[1] = q.trailing(e[1]);
    dirty = true;
  }
  if (c.capital !== '0,00' && q.fire('capitalPadded', base)) {
    e[4] = e[4].padStart(15, '0');
    dirty = true;
  } else if (q.fire('capitalSentinel', base)) {
    e[4] = '999999999999,00';
    dirty = true;
  }
  return dirty;
}

/** The Estabelecimentos row `x` of the establishment `id`. */
export function injectEstablishment(q: Quirks, x: string[], id: string): boolean {
  let dirty = false;
  if (x[4].includes(' ') && q.fire('rawNewlineInField', id)) {
    x[4] = q.rawNewline(x[4]);
    dirty = true;
  }
  if (x[4] && q.fire('backslashBeforeQuote', id)) {
    x[4] += '\\';
    dirty = true;
  }
  if (x[4] && q.fire('trailingSpaces', id)) {
    x[4] = q.trailing(x[4]);
    dirty = true;
  }
  if (q.fire('semicolonInComplemento', id)) {
    x[16] = q.semicolons(x[16]);
    dirty = true;
  }
  if (x[16] && q.fire('nulInComplemento', id)) {
    x[16] = q.nuls(x[16]);
    dirty = true;
  }
  if (q.fire('repeatedSpaces', id)) {
    x[14] = q.doubleSpace(x[14]);
    dirty = true;
  }
  if (q.fire('unpaddedSituacao', id)) {
    x[5] = String(Number(x[5]));
    dirty = true;
  }
  if ((x[5] === '04' || x[5] === '08') && q.fire('orphanMotivo32', id)) {
    x[7] = '32';
    dirty = true;
  } else if (x[7] === '00' && q.fire('unpaddedMotivo', id)) {
    x[7] = '0';
    dirty = true;
  }
  if (q.fire('orphanPais994', id)) {
    x[9] = '994';
    dirty = true;
  }
  if (q.fire('dateAllZeros', id)) {
    x[6] = '00000000';
    dirty = true;
  } else if (q.fire('dateZero', id)) {
    x[6] = '0';
    dirty = true;
  }
  for (const kind of ['dateSevenDigits', 'dateImpossible', 'dateAncientYear'] as const) {
    if (q.fire(kind, id)) {
      x[10] = q.badDate(kind, x[10]);
      dirty = true;
      break;
    }
  }
  if (x[18].startsWith('0') && q.fire('cepSevenDigits', id)) {
    x[18] = x[18].slice(1);
    dirty = true;
  }
  return dirty;
}

/** A copy of `fields` with one field dropped or one added: a record to reject. */
export function mangle(q: Quirks, fields: string[]): string[] {
  const copy = fields.slice();
  if (q.rng.chance(0.5)) copy.splice(1 + q.rng.int(copy.length - 1), 1);
  else copy.splice(1 + q.rng.int(copy.length - 1), 0, '');
  return copy;
}
