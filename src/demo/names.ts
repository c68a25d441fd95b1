// Names of people and companies, CPFs: uppercase without diacritics, as in the real dump (a few
// company names carry accents, see accentize). Word frequencies are long-tailed like the real
// ones: names and surnames ranked (MARIA, SILVA first), brand words Zipf over a large vocabulary.

import type { Kind } from './kinds.ts';
import type { Municipio } from './code-tables.ts';
import { Weighted, type Rng } from './prng.ts';
import { accentize, brandWord, rareSurname } from './vocab.ts';
import { ACTIVITIES, FIRST_NAMES, MIDDLE_NAMES, NAME_PARTICLES, NAME_SUFFIXES, SURNAMES } from './words.ts';

// FIRST_NAMES comes in two runs of 50 (mostly men, then women), each in frequency order.
const FIRST = new Weighted(FIRST_NAMES.map((n, i) => [n, 1 / ((i % 50) + 2)] as const));
const SURNAME = Weighted.ranked(SURNAMES, 3);
const ACTIVITY = Weighted.ranked(ACTIVITIES, 2);

function surname(r: Rng): string {
  return r.chance(0.06) ? rareSurname(r) : SURNAME.pick(r);
}

export function person(r: Rng): string {
  let s = FIRST.pick(r);
  if (r.chance(0.4)) s += ` ${r.pick(MIDDLE_NAMES)}`;
  if (r.chance(0.5)) s += ` ${surname(r)}`;
  if (r.chance(0.35)) s += ` ${r.pick(NAME_PARTICLES)}`;
  s += ` ${surname(r)}`;
  if (r.chance(0.04)) s += ` ${r.pick(NAME_SUFFIXES)}`;
  return s;
}

/** A CPF with valid check digits (11 digits). */
export function cpf(r: Rng): string {
  const d: number[] = [];
  for (let i = 0; i < 9; i++) d.push(r.int(10));
  for (const len of [9, 10]) {
    let s = 0;
    for (let i = 0; i < len; i++) s += d[i] * (len + 1 - i);
    const rest = (s * 10) % 11;
    d.push(rest === 10 ? 0 : rest);
  }
  return d.join('');
}

/** Partner CPFs are published masked: digits 4–9 only. */
export function maskedCpf(r: Rng): string {
  return `***${r.digits(6)}**`;
}

export function brand(r: Rng): string {
  switch (r.int(6)) {
    case 0:
    case 1:
      return brandWord(r);
    case 2:
      return surname(r);
    case 3:
      return `${surname(r)} & ${surname(r)}`;
    case 4:
      return (
        String.fromCharCode(65 + r.int(26), 65 + r.int(26)) + (r.chance(0.5) ? String.fromCharCode(65 + r.int(26)) : '')
      );
    default:
      return `${brandWord(r)} ${r.chance(0.5) ? brandWord(r) : surname(r)}`;
  }
}

/** The razão social of a company of this kind; about 3% are written with accents. */
export function companyName(r: Rng, kind: Kind, base: string, city: Municipio): string {
  const name = plainName(r, kind, base, city);
  return r.chance(0.03) ? accentize(name) : name;
}

function plainName(r: Rng, kind: Kind, base: string, city: Municipio): string {
  switch (kind) {
    case 'mei':
      // Newer MEIs carry the formatted base in front; all carry the owner's CPF at the end.
      return r.chance(0.25)
        ? `${base.slice(0, 2)}.${base.slice(2, 5)}.${base.slice(5, 8)} ${person(r)}`
        : `${person(r)} ${cpf(r)}`;
    case 'rural':
      return person(r);
    case 'candidate':
      return `ELEICAO ${r.pick(['2016', '2018', '2020', '2022', '2024'])} ${person(r)} ${r.pick(['VEREADOR', 'PREFEITO', 'DEPUTADO ESTADUAL', 'DEPUTADO FEDERAL', 'VICE-PREFEITO'])}`;
    case 'ltda':
    case 'eireli': {
      const core = `${brand(r)} ${ACTIVITY.pick(r)}`;
      if (kind === 'eireli') return `${core} EIRELI`;
      return `${core} ${r.chance(0.85) ? 'LTDA' : r.pick(['LTDA - ME', 'LTDA ME', 'LTDA - EPP'])}`;
    }
    case 'sa':
      return `${brand(r)} ${ACTIVITY.pick(r)} ${r.pick(['S.A.', 'S/A', 'S.A'])}`;
    case 'assoc':
      return `${r.pick(['ASSOCIACAO DOS MORADORES DO', 'ASSOCIACAO DE PAIS E MESTRES DA ESCOLA', 'ASSOCIACAO COMERCIAL DE', 'SINDICATO DOS TRABALHADORES RURAIS DE', 'CLUBE DE MAES DO', 'INSTITUTO'])} ${r.chance(0.5) ? city.desc : brandWord(r)}`;
    case 'religious':
      return `${r.pick(['IGREJA EVANGELICA ASSEMBLEIA DE DEUS', 'IGREJA BATISTA', 'PAROQUIA', 'IGREJA PENTECOSTAL', 'CENTRO ESPIRITA', 'COMUNIDADE CRISTA'])} ${brandWord(r)}`;
    case 'condo':
      return `CONDOMINIO ${r.pick(['EDIFICIO', 'RESIDENCIAL', 'CONJUNTO'])} ${brandWord(r)}`;
    case 'coop':
      return `COOPERATIVA ${r.pick(['AGROPECUARIA', 'DE CREDITO', 'DE TRANSPORTES', 'DE TRABALHO MEDICO', 'DE RECICLAGEM'])} ${brandWord(r)} ${r.chance(0.5) ? 'LTDA' : ''}`.trimEnd();
    case 'public':
      return `${r.pick(['MUNICIPIO DE', 'CAMARA MUNICIPAL DE', 'FUNDO MUNICIPAL DE SAUDE DE', 'SECRETARIA MUNICIPAL DE EDUCACAO DE', 'SERVICO AUTONOMO DE AGUA E ESGOTO DE'])} ${city.desc}`;
    default:
      return `${brand(r)} ${r.pick(['SOCIEDADE INDIVIDUAL DE ADVOCACIA', 'REPRESENTACOES', 'DO BRASIL'])}`;
  }
}
