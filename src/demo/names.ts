// Names of people and companies, CPFs: uppercase without diacritics, as in the real dump.

import type { Kind } from './kinds.ts';
import type { Municipio } from './lookups.ts';
import type { Rng } from './prng.ts';
import { ACTIVITIES, BRAND_WORDS, FIRST_NAMES, MIDDLE_NAMES, NAME_PARTICLES, NAME_SUFFIXES, SURNAMES } from './words.ts';

export function person(r: Rng): string {
  let s = r.pick(FIRST_NAMES);
  if (r.chance(0.4)) s += ` ${r.pick(MIDDLE_NAMES)}`;
  if (r.chance(0.5)) s += ` ${r.pick(SURNAMES)}`;
  if (r.chance(0.35)) s += ` ${r.pick(NAME_PARTICLES)}`;
  s += ` ${r.pick(SURNAMES)}`;
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
  switch (r.int(5)) {
    case 0:
      return r.pick(BRAND_WORDS);
    case 1:
      return r.pick(SURNAMES);
    case 2:
      return `${r.pick(SURNAMES)} & ${r.pick(SURNAMES)}`;
    case 3:
      return String.fromCharCode(65 + r.int(26), 65 + r.int(26)) + (r.chance(0.5) ? String.fromCharCode(65 + r.int(26)) : '');
    default:
      return `${r.pick(BRAND_WORDS)} ${r.pick(SURNAMES)}`;
  }
}

/** The razão social of a company of this kind. */
export function companyName(r: Rng, kind: Kind, base: string, city: Municipio): string {
  switch (kind) {
    case 'mei':
      // Newer MEIs carry the formatted base in front; all carry the owner's CPF at the end.
      return r.chance(0.25) ? `${base.slice(0, 2)}.${base.slice(2, 5)}.${base.slice(5, 8)} ${person(r)}` : `${person(r)} ${cpf(r)}`;
    case 'rural':
      return person(r);
    case 'candidate':
      return `ELEICAO ${r.pick(['2016', '2018', '2020', '2022', '2024'])} ${person(r)} ${r.pick(['VEREADOR', 'PREFEITO', 'DEPUTADO ESTADUAL', 'DEPUTADO FEDERAL', 'VICE-PREFEITO'])}`;
    case 'ltda':
    case 'eireli': {
      const core = `${brand(r)} ${r.pick(ACTIVITIES)}`;
      if (kind === 'eireli') return `${core} EIRELI`;
      return `${core} ${r.chance(0.85) ? 'LTDA' : r.pick(['LTDA - ME', 'LTDA ME', 'LTDA - EPP'])}`;
    }
    case 'sa':
      return `${brand(r)} ${r.pick(ACTIVITIES)} ${r.pick(['S.A.', 'S/A', 'S.A'])}`;
    case 'assoc':
      return `${r.pick(['ASSOCIACAO DOS MORADORES DO', 'ASSOCIACAO DE PAIS E MESTRES DA ESCOLA', 'ASSOCIACAO COMERCIAL DE', 'SINDICATO DOS TRABALHADORES RURAIS DE', 'CLUBE DE MAES DO', 'INSTITUTO'])} ${r.chance(0.5) ? city.desc : r.pick(BRAND_WORDS)}`;
    case 'religious':
      return `${r.pick(['IGREJA EVANGELICA ASSEMBLEIA DE DEUS', 'IGREJA BATISTA', 'PAROQUIA', 'IGREJA PENTECOSTAL', 'CENTRO ESPIRITA', 'COMUNIDADE CRISTA'])} ${r.pick(BRAND_WORDS)}`;
    case 'condo':
      return `CONDOMINIO ${r.pick(['EDIFICIO', 'RESIDENCIAL', 'CONJUNTO'])} ${r.pick(BRAND_WORDS)}`;
    case 'coop':
      return `COOPERATIVA ${r.pick(['AGROPECUARIA', 'DE CREDITO', 'DE TRANSPORTES', 'DE TRABALHO MEDICO', 'DE RECICLAGEM'])} ${r.pick(BRAND_WORDS)} ${r.chance(0.5) ? 'LTDA' : ''}`.trimEnd();
    case 'public':
      return `${r.pick(['MUNICIPIO DE', 'CAMARA MUNICIPAL DE', 'FUNDO MUNICIPAL DE SAUDE DE', 'SECRETARIA MUNICIPAL DE EDUCACAO DE', 'SERVICO AUTONOMO DE AGUA E ESGOTO DE'])} ${city.desc}`;
    default:
      return `${brand(r)} ${r.pick(['SOCIEDADE INDIVIDUAL DE ADVOCACIA', 'REPRESENTACOES', 'DO BRASIL'])}`;
  }
}
