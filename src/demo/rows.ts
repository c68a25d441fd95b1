// Builders for the clean records of one synthetic company: the Empresas row, its
// establishments, partners, Simples row and regime rows. Proportions follow the real counts
// (docs/receita-dump.md §2): about half the companies are individual entrepreneurs (MEI, no partners),
// ~1.05 establishments and ~0.4 partners per company, Simples for ~60%, regimes for ~15%.
// Quirks are applied by generate.ts, not here.

import { formatCnpj, makeCnpj } from '../domain/cnpj.ts';
import type { Lookups, Municipio } from './lookups.ts';
import { UF_MUNICIPIOS } from './lookups.ts';
import { Rng, Weighted } from './prng.ts';
import {
  ACTIVITIES, BRAND_WORDS, COMPLEMENTS, EMAIL_DOMAINS, EMAIL_ROLES, FANTASY_TAILS, FIRST_NAMES, FOREIGN_CITIES,
  MIDDLE_NAMES, NAME_PARTICLES, NAME_SUFFIXES, NEIGHBOURHOOD_PREFIXES, SPECIAL_SITUATIONS, STREET_NAMES,
  STREET_TYPES, SURNAMES,
} from './words.ts';

export const DAY_MS = 86_400_000;

/** `YYYYMMDD` for a day number since 1970-01-01 (civil-from-days; faster than Date). */
export function ymd(day: number): string {
  const z = day + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  return `${y}${m < 10 ? '0' : ''}${m}${d < 10 ? '0' : ''}${d}`;
}

export function dayOf(y: number, m: number, d: number): number {
  return Date.UTC(y, m - 1, d) / DAY_MS;
}

export function yearOf(day: number): number {
  return new Date(day * DAY_MS).getUTCFullYear();
}

type Kind = 'mei' | 'ltda' | 'eireli' | 'sa' | 'assoc' | 'religious' | 'candidate' | 'condo' | 'coop' | 'public' | 'rural' | 'other';

// natureza, weight (%), kind, qualificação of the responsible person
const NATUREZA_MIX: ReadonlyArray<readonly [string, number, Kind, string]> = [
  ['2135', 50, 'mei', '50'], ['2062', 27, 'ltda', '49'], ['2305', 3, 'eireli', '65'], ['2240', 1.5, 'ltda', '49'],
  ['2232', 0.3, 'ltda', '49'], ['2054', 0.6, 'sa', '10'], ['2046', 0.02, 'sa', '16'], ['3999', 4, 'assoc', '16'],
  ['3220', 1.5, 'religious', '16'], ['4090', 3, 'candidate', '51'], ['3085', 1.5, 'condo', '19'], ['2143', 0.3, 'coop', '16'],
  ['4120', 0.5, 'rural', '59'], ['1031', 0.2, 'public', '05'], ['1333', 0.15, 'public', '05'], ['1120', 0.04, 'public', '05'],
  ['1244', 0.01, 'public', '05'], ['2011', 0.01, 'sa', '16'], ['2038', 0.02, 'sa', '10'], ['3069', 0.1, 'assoc', '16'],
  ['3131', 0.2, 'assoc', '16'], ['2321', 0.3, 'other', '65'], ['3271', 0.3, 'assoc', '16'], ['2330', 0.02, 'coop', '16'],
  ['2348', 0.02, 'ltda', '49'], ['2178', 0.03, 'other', '17'], ['0000', 0.005, 'other', '00'],
];

const CEP_RANGES: Record<string, readonly [number, number]> = {
  SP: [1000, 19999], RJ: [20000, 28999], ES: [29000, 29999], MG: [30000, 39999], BA: [40000, 48999], SE: [49000, 49999],
  PE: [50000, 56999], AL: [57000, 57999], PB: [58000, 58999], RN: [59000, 59999], CE: [60000, 63999], PI: [64000, 64999],
  MA: [65000, 65999], PA: [66000, 68899], AP: [68900, 68999], AM: [69000, 69299], RR: [69300, 69399], AC: [69900, 69999],
  DF: [70000, 72799], GO: [72800, 76799], RO: [76800, 76999], TO: [77000, 77999], MT: [78000, 78899], MS: [79000, 79999],
  PR: [80000, 87999], SC: [88000, 89999], RS: [90000, 99999],
};

const DDDS: Record<string, readonly string[]> = {
  SP: ['11', '11', '11', '12', '13', '14', '15', '16', '17', '18', '19'], RJ: ['21', '21', '22', '24'], ES: ['27', '28'],
  MG: ['31', '31', '32', '33', '34', '35', '37', '38'], PR: ['41', '42', '43', '44', '45', '46'], SC: ['47', '48', '49'],
  RS: ['51', '51', '53', '54', '55'], DF: ['61'], GO: ['62', '64'], TO: ['63'], MT: ['65', '66'], MS: ['67'], AC: ['68'],
  RO: ['69'], BA: ['71', '73', '74', '75', '77'], SE: ['79'], PE: ['81', '87'], AL: ['82'], PB: ['83'], RN: ['84'],
  CE: ['85', '88'], PI: ['86', '89'], PA: ['91', '93', '94'], AM: ['92', '97'], RR: ['95'], AP: ['96'], MA: ['98', '99'],
};

// situação cadastral (mostly 02 ativa and 08 baixada) and plausible motivos for each
const SITUACAO = new Weighted<string>([['02', 55], ['08', 36], ['04', 8], ['03', 0.4], ['01', 0.6]]);
const MOTIVO_BY_SITUACAO: Record<string, Weighted<string>> = {
  '02': new Weighted([['00', 1]]),
  '08': new Weighted([['01', 60], ['71', 12], ['80', 5], ['54', 4], ['02', 1], ['09', 2], ['62', 2], ['75', 3], ['31', 3]]),
  '04': new Weighted([['63', 85], ['66', 8], ['64', 5], ['15', 2]]),
  '03': new Weighted([['18', 50], ['73', 30], ['61', 20]]),
  '01': new Weighted([['11', 30], ['12', 30], ['16', 20], ['34', 20]]),
};

// Partner age bands (0 is for legal entities; 1–2 are minors, who get a representative).
const FAIXA = new Weighted<string>([['1', 0.5], ['2', 4], ['3', 18], ['4', 25], ['5', 22], ['6', 15], ['7', 9], ['8', 4], ['9', 1.5]]);

// Opening-year weights: few old companies, the MEI boom from 2009, most since 2020.
function yearWeights(lastYear: number): Weighted<number> {
  const pairs: Array<[number, number]> = [];
  for (let y = 1960; y <= lastYear; y++) pairs.push([y, y < 1990 ? 0.3 : y < 2000 ? 1 : y < 2009 ? 1.5 : y < 2020 ? 3.5 : 6]);
  return new Weighted(pairs);
}

export interface Company {
  index: number;
  base: string;
  natureza: string;
  kind: Kind;
  razao: string;
  qualResp: string;
  capital: string;
  porte: string;
  ente: string;
  startDay: number;
  uf: string;
  municipio: Municipio;
  cnae: string;
  situacao: string;
  sitDay: number;
  /** Year the company closed (baixada), or null. */
  closedYear: number | null;
  simples: string[] | null;
  simplesActive: boolean;
  branches: number;
}

export interface Establishment {
  order: string;
  cnpj: string;
  fields: string[];
}

export class RowFactory {
  private readonly natureza = new Weighted(NATUREZA_MIX.map((n) => [n, n[1]] as const));
  private readonly ufPicker = new Weighted(UF_MUNICIPIOS.map(([uf, , share]) => [uf, share] as const));
  private readonly streetTypes = new Weighted(STREET_TYPES);
  private readonly emailDomains = new Weighted(EMAIL_DOMAINS);
  private readonly years: Weighted<number>;
  private readonly lastDay: number;
  private readonly lastYear: number;
  private readonly alnumFrom: number;

  constructor(
    readonly rng: Rng,
    readonly lk: Lookups,
    /** Extraction day: nothing in the data is later. */
    extractionDay: number,
  ) {
    this.lastDay = extractionDay - 1;
    this.lastYear = yearOf(this.lastDay);
    this.years = yearWeights(this.lastYear);
    this.alnumFrom = dayOf(2026, 7, 1);
  }

  /** Alphanumeric bases exist only for registrations from July 2026 on. */
  get alnumPossible(): boolean {
    return this.lastDay >= this.alnumFrom;
  }

  // ---- people and names ----

  person(): string {
    const r = this.rng;
    let s = r.pick(FIRST_NAMES);
    if (r.chance(0.4)) s += ` ${r.pick(MIDDLE_NAMES)}`;
    if (r.chance(0.5)) s += ` ${r.pick(SURNAMES)}`;
    if (r.chance(0.35)) s += ` ${r.pick(NAME_PARTICLES)}`;
    s += ` ${r.pick(SURNAMES)}`;
    if (r.chance(0.04)) s += ` ${r.pick(NAME_SUFFIXES)}`;
    return s;
  }

  /** A CPF with valid check digits (11 digits). */
  cpf(): string {
    const d: number[] = [];
    for (let i = 0; i < 9; i++) d.push(this.rng.int(10));
    for (const len of [9, 10]) {
      let s = 0;
      for (let i = 0; i < len; i++) s += d[i] * (len + 1 - i);
      const r = (s * 10) % 11;
      d.push(r === 10 ? 0 : r);
    }
    return d.join('');
  }

  /** Partner CPFs are published masked: digits 4–9 only. */
  maskedCpf(): string {
    return `***${this.rng.digits(6)}**`;
  }

  private brand(): string {
    const r = this.rng;
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

  private companyName(kind: Kind, base: string, city: Municipio): string {
    const r = this.rng;
    switch (kind) {
      case 'mei':
        // Newer MEIs carry the formatted base in front; all carry the owner's CPF at the end.
        return r.chance(0.25) ? `${base.slice(0, 2)}.${base.slice(2, 5)}.${base.slice(5, 8)} ${this.person()}` : `${this.person()} ${this.cpf()}`;
      case 'rural':
        return this.person();
      case 'candidate':
        return `ELEICAO ${r.pick(['2016', '2018', '2020', '2022', '2024'])} ${this.person()} ${r.pick(['VEREADOR', 'PREFEITO', 'DEPUTADO ESTADUAL', 'DEPUTADO FEDERAL', 'VICE-PREFEITO'])}`;
      case 'ltda':
      case 'eireli': {
        const core = `${this.brand()} ${r.pick(ACTIVITIES)}`;
        if (kind === 'eireli') return `${core} EIRELI`;
        return `${core} ${r.chance(0.85) ? 'LTDA' : r.pick(['LTDA - ME', 'LTDA ME', 'LTDA - EPP'])}`;
      }
      case 'sa':
        return `${this.brand()} ${r.pick(ACTIVITIES)} ${r.pick(['S.A.', 'S/A', 'S.A'])}`;
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
        return `${this.brand()} ${r.pick(['SOCIEDADE INDIVIDUAL DE ADVOCACIA', 'REPRESENTACOES', 'DO BRASIL'])}`;
    }
  }

  private capital(kind: Kind): string {
    const r = this.rng;
    let v: number;
    switch (kind) {
      case 'mei':
      case 'rural':
        v = r.chance(0.3) ? 0 : r.pick([1000, 2000, 5000, 10000, 15000, 20000, 30000, 50000]);
        break;
      case 'ltda':
      case 'eireli':
        v = r.chance(0.7) ? r.pick([10000, 20000, 30000, 50000, 80000, 100000, 150000, 200000, 500000]) : r.range(1, 2_000_000);
        break;
      case 'sa':
        v = r.range(100_000, 900_000_000);
        break;
      case 'assoc':
      case 'religious':
      case 'candidate':
      case 'condo':
      case 'public':
        v = 0;
        break;
      default:
        v = r.pick([0, 1000, 10000, 100000]);
    }
    const cents = v > 0 && r.chance(0.05) ? r.range(1, 99) : 0;
    return `${v},${cents < 10 ? '0' : ''}${cents}`;
  }

  private porte(kind: Kind): string {
    const r = this.rng;
    if (r.chance(0.0001)) return r.pick(['00', '']);
    switch (kind) {
      case 'mei':
      case 'candidate':
      case 'rural':
        return '01';
      case 'ltda':
      case 'eireli':
        return r.chance(0.6) ? '01' : r.chance(0.3) ? '03' : '05';
      default:
        return '05';
    }
  }

  private day(): number {
    const y = this.years.pick(this.rng);
    const start = dayOf(y, 1, 1);
    return Math.min(start + this.rng.int(365), this.lastDay);
  }

  private between(from: number, to: number): number {
    return to <= from ? from : from + this.rng.int(to - from + 1);
  }

  // ---- the company ----

  company(index: number, base: string, alnum: boolean): Company {
    const r = this.rng;
    const [natureza, , kind, qualResp] = this.natureza.pick(r);
    const uf = this.ufPicker.pick(r);
    const municipio = this.lk.municipioPickers.get(uf)!.pick(r);
    const razao = this.companyName(kind, base, municipio);
    const startDay = alnum ? this.between(this.alnumFrom, this.lastDay) : this.day();
    let situacao = alnum ? '02' : SITUACAO.pick(r);
    if (kind === 'candidate' && !alnum) situacao = r.chance(0.8) ? '08' : '02';
    const sitDay = situacao === '02' ? (r.chance(0.7) ? startDay : this.between(startDay, this.lastDay)) : this.between(startDay, this.lastDay);
    const cnae = this.cnaeFor(kind);
    // Only public bodies name their federative entity; municipal ones as `CITY - UF`.
    const ente = kind === 'public' ? `${municipio.desc} - ${uf}` : '';
    const c: Company = {
      index, base, natureza, kind, razao, qualResp,
      capital: this.capital(kind),
      porte: this.porte(kind),
      ente, startDay, uf, municipio, cnae, situacao, sitDay,
      closedYear: situacao === '08' ? yearOf(sitDay) : null,
      simples: null,
      simplesActive: false,
      branches: this.branchCount(kind),
    };
    this.simples(c);
    return c;
  }

  private cnaeFor(kind: Kind): string {
    switch (kind) {
      case 'candidate':
        return '9492800';
      case 'religious':
        return '9491000';
      case 'assoc':
        return this.rng.pick(['9430800', '9499500', '9499500']);
      case 'condo':
        return '8112500';
      case 'public':
        return '8411600';
      case 'rural':
        return this.rng.pick(['0151201', '0111301']);
      default:
        return this.lk.cnaePicker.pick(this.rng);
    }
  }

  private branchCount(kind: Kind): number {
    if (kind === 'candidate' || kind === 'condo' || kind === 'rural') return 0;
    const x = this.rng.next();
    const big = kind === 'sa' || kind === 'public' || kind === 'coop' ? 8 : 1;
    if (x < 0.022 * big) return 1;
    if (x < 0.027 * big) return this.rng.range(2, 4);
    if (x < 0.0276 * big) return this.rng.range(5, 25);
    return 0;
  }

  empresaFields(c: Company): string[] {
    return [c.base, c.razao, c.natureza, c.qualResp, c.capital, c.porte, c.ente];
  }

  // ---- establishments ----

  establishment(c: Company, order: string, matriz: boolean): Establishment {
    const r = this.rng;
    const cnpj = makeCnpj(c.base, order);
    let situacao = c.situacao;
    let sitDay = c.sitDay;
    let startDay = c.startDay;
    let uf = c.uf;
    let municipio = c.municipio;
    if (!matriz) {
      startDay = this.between(c.startDay, this.lastDay);
      if (c.situacao === '08') sitDay = this.between(startDay, Math.max(startDay, c.sitDay));
      else {
        situacao = r.chance(0.3) ? '08' : c.situacao;
        sitDay = situacao === '02' ? startDay : this.between(startDay, this.lastDay);
      }
      if (r.chance(0.3)) uf = this.ufPicker.pick(r);
      municipio = this.lk.municipioPickers.get(uf)!.pick(r);
    }
    const foreign = r.chance(0.0025);
    let cidadeExterior = '';
    let pais = '';
    if (foreign) {
      const [city, code] = r.pick(FOREIGN_CITIES);
      cidadeExterior = city;
      pais = code;
      uf = 'EX';
      municipio = this.lk.municipioPickers.get('EX')!.pick(r);
    }
    const motivo = MOTIVO_BY_SITUACAO[situacao].pick(r);
    const fantasia = this.fantasia(c);
    const secondary = r.chance(0.5) ? this.secondaryCnaes(c.cnae) : '';
    const numero = r.chance(0.09) ? r.pick(['S/N', 'S/N', 'SN', '0']) : String(r.chance(0.7) ? r.range(1, 999) : r.range(1000, 9999));
    const complemento = r.chance(0.45) ? this.complemento() : '';
    const bairro = foreign ? cidadeExterior : r.chance(0.2) ? 'CENTRO' : `${r.pick(NEIGHBOURHOOD_PREFIXES)} ${r.pick(BRAND_WORDS)}`;
    const cep = foreign ? '' : this.cep(uf);
    const [ddd1, tel1] = r.chance(0.85) && !foreign ? this.phone(uf) : ['', ''];
    const [ddd2, tel2] = tel1 && r.chance(0.15) ? this.phone(uf) : ['', ''];
    const [dddFax, fax] = tel1 && r.chance(0.03) ? this.phone(uf) : ['', ''];
    const email = r.chance(0.55) ? this.email(c) : '';
    const special = r.chance(0.0005) ? r.pick(SPECIAL_SITUATIONS) : '';
    const fields = [
      c.base, order, cnpj.slice(12), matriz ? '1' : '2', fantasia, situacao, ymd(sitDay), motivo,
      cidadeExterior, pais, ymd(startDay), c.cnae, secondary,
      this.streetTypes.pick(r), r.pick(STREET_NAMES), numero, complemento, bairro, cep, uf, municipio.code,
      ddd1, tel1, ddd2, tel2, dddFax, fax, email, special, special ? ymd(this.between(startDay, this.lastDay)) : '',
    ];
    return { order, cnpj, fields };
  }

  private fantasia(c: Company): string {
    const r = this.rng;
    if (r.chance(0.48) || c.kind === 'public' || c.kind === 'candidate') return '';
    switch (r.int(4)) {
      case 0:
        return `${r.pick(BRAND_WORDS)} ${r.pick(FANTASY_TAILS)}`;
      case 1:
        return `${r.pick(FIRST_NAMES)} ${r.pick(FANTASY_TAILS)}`;
      case 2:
        return `${r.pick(FANTASY_TAILS)} ${r.pick(BRAND_WORDS)}`;
      default:
        return r.pick(BRAND_WORDS);
    }
  }

  private secondaryCnaes(principal: string): string {
    const n = 1 + Math.min(7, Math.floor(-Math.log(1 - this.rng.next()) * 1.8));
    const codes = new Set<string>();
    for (let i = 0; i < n * 2 && codes.size < n; i++) {
      const c = this.lk.cnaePicker.pick(this.rng);
      if (c !== principal) codes.add(c);
    }
    return [...codes].join(',');
  }

  private complemento(): string {
    const r = this.rng;
    const a = r.pick(COMPLEMENTS);
    if (a === 'TERREO' || a === 'FUNDOS' || a === 'CASA') return r.chance(0.5) ? a : `${a} ${r.range(1, 9)}`;
    let s = `${a} ${r.chance(0.3) ? String(r.range(1, 20)).padStart(2, '0') : r.range(1, 1500)}`;
    if (r.chance(0.25)) s += ` ${r.pick(['BLOCO', 'QUADRA', 'LOTE', 'ANDAR'])} ${r.chance(0.5) ? String.fromCharCode(65 + r.int(8)) : r.range(1, 30)}`;
    return s;
  }

  cep(uf: string): string {
    const [lo, hi] = CEP_RANGES[uf] ?? [1000, 99999];
    return String(this.rng.range(lo, hi)).padStart(5, '0') + (this.rng.chance(0.4) ? '000' : this.rng.digits(3));
  }

  private phone(uf: string): [string, string] {
    const r = this.rng;
    const ddd = r.pick(DDDS[uf] ?? ['11']);
    const mobile = r.chance(0.6);
    return [ddd, mobile ? `9${r.range(6, 9)}${r.digits(7)}` : `${r.range(2, 5)}${r.digits(7)}`];
  }

  private email(c: Company): string {
    const r = this.rng;
    const word = (s: string) => s.toLowerCase().replace(/[^a-z]+/g, '');
    const who = r.pick(FIRST_NAMES);
    let local: string;
    let domain: string;
    if (r.chance(0.3) && c.kind !== 'mei') {
      local = r.pick(EMAIL_ROLES);
      domain = `${word(c.razao.split(' ').slice(0, 2).join('')).slice(0, 18) || 'empresa'}.com.br`;
    } else {
      local = `${word(who)}${r.chance(0.5) ? '.' + word(r.pick(SURNAMES)) : ''}${r.chance(0.5) ? r.range(1, 99) : ''}`;
      domain = this.emailDomains.pick(r);
    }
    const e = `${local}@${domain}`;
    // Mixed case, as typed by whoever filled the form.
    const style = r.next();
    if (style < 0.3) return e.toUpperCase();
    if (style < 0.4) return e.charAt(0).toUpperCase() + e.slice(1);
    return e;
  }

  // ---- partners ----

  partners(c: Company): string[][] {
    const r = this.rng;
    let n: number;
    switch (c.kind) {
      case 'mei':
      case 'candidate':
      case 'rural':
      case 'public':
        return [];
      case 'ltda': {
        const x = r.next();
        n = x < 0.35 ? 0 : x < 0.7 ? 1 : x < 0.95 ? 2 : x < 0.99 ? 3 : r.range(4, 8);
        break;
      }
      case 'eireli':
      case 'other':
        n = r.chance(0.6) ? 1 : 0;
        break;
      case 'sa':
        n = r.range(2, 7);
        break;
      case 'condo':
        n = r.chance(0.5) ? 1 : 0;
        break;
      default:
        n = r.chance(0.5) ? r.range(1, 3) : 0;
    }
    const rows: string[][] = [];
    for (let i = 0; i < n; i++) rows.push(this.partner(c, i));
    return rows;
  }

  private partner(c: Company, i: number): string[] {
    const r = this.rng;
    const entry = ymd(i === 0 || r.chance(0.6) ? c.startDay : this.between(c.startDay, this.lastDay));
    const x = r.next();
    if ((c.kind === 'ltda' || c.kind === 'sa') && x < 0.05) {
      // a legal-entity partner: full unmasked CNPJ, no age band
      const base = r.digits(8);
      return [c.base, '1', `${this.brand()} ${r.pick(['PARTICIPACOES LTDA', 'HOLDING S.A.', 'EMPREENDIMENTOS LTDA'])}`, makeCnpj(base, '0001'), '22', entry, '', '***000000**', '', '00', '0'];
    }
    if (x < 0.06) {
      const [, pais] = r.pick(FOREIGN_CITIES);
      return [c.base, '3', `${r.pick(['JOHN', 'MARIE', 'HANS', 'GIUSEPPE', 'JUAN', 'KENJI'])} ${r.pick(['SMITH', 'DUBOIS', 'MULLER', 'ROSSI', 'GARCIA', 'TANAKA'])}`, '', '37', entry, pais, '***' + r.digits(6) + '**', this.person(), '17', '0'];
    }
    const qual = c.kind === 'sa' ? r.pick(['10', '10', '16', '08', '05']) : c.kind === 'assoc' || c.kind === 'religious' || c.kind === 'coop' ? r.pick(['16', '10', '33', '18', '05']) : c.kind === 'condo' ? '19' : c.kind === 'eireli' ? '65' : r.chance(0.6) ? '49' : '22';
    const faixa = FAIXA.pick(r);
    // Minors are represented (pai/mãe); otherwise the placeholder `***000000**` and `00`.
    const minor = faixa === '1' || faixa === '2';
    return [
      c.base, '2', this.person(), this.maskedCpf(), minor ? '30' : qual, entry, '',
      minor ? this.maskedCpf() : '***000000**', minor ? this.person() : '', minor ? r.pick(['14', '15']) : '00', faixa,
    ];
  }

  // ---- Simples / MEI ----

  private simples(c: Company): void {
    const r = this.rng;
    const p = c.kind === 'mei' ? 0.74 : c.kind === 'ltda' || c.kind === 'eireli' ? 0.62 : c.kind === 'other' ? 0.3 : c.kind === 'assoc' ? 0.01 : 0;
    if (!r.chance(p)) return;
    const z = '00000000';
    const opt = this.between(Math.max(c.startDay, dayOf(2007, 7, 1)), this.lastDay);
    const optDay = ymd(opt);
    const closed = c.situacao === '08' ? ymd(Math.max(opt, c.sitDay)) : null;
    if (c.kind === 'mei' && r.chance(0.8)) {
      if (closed || r.chance(0.15)) {
        const excl = closed ?? ymd(this.between(opt, this.lastDay));
        c.simples = [c.base, 'N', optDay, excl, 'N', optDay, excl];
      } else {
        c.simples = [c.base, 'S', optDay, z, 'S', optDay, z];
        c.simplesActive = true;
      }
      return;
    }
    if (closed || r.chance(0.2)) {
      c.simples = [c.base, 'N', optDay, closed ?? ymd(this.between(opt, this.lastDay)), 'N', z, z];
    } else {
      c.simples = [c.base, 'S', optDay, z, 'N', z, z];
      c.simplesActive = true;
    }
  }

  // ---- tax regimes (ECF, 2016–2024) ----

  /** [year, formatted cnpj, scp, forma, quantidade] rows for this company. */
  regimes(c: Company, establishments: readonly Establishment[]): Array<[number, string, string, string, number]> {
    const r = this.rng;
    if (c.simplesActive || c.kind === 'candidate' || c.kind === 'condo' || c.kind === 'rural') return [];
    let p: number;
    let forma: string;
    switch (c.kind) {
      case 'sa':
        p = 0.9;
        forma = r.chance(0.7) ? 'LUCRO REAL' : 'LUCRO PRESUMIDO';
        break;
      case 'ltda':
      case 'eireli':
      case 'other':
      case 'coop':
        p = 0.62;
        forma = r.chance(0.82) ? 'LUCRO PRESUMIDO' : r.chance(0.98) ? 'LUCRO REAL' : 'LUCRO ARBITRADO';
        break;
      case 'assoc':
      case 'religious':
        p = 0.35;
        forma = c.kind === 'religious' || r.chance(0.4) ? 'IMUNE DO IRPJ' : 'ISENTA DO IRPJ';
        break;
      case 'public':
        p = 0.2;
        forma = 'IMUNE DO IRPJ';
        break;
      default:
        p = 0.06;
        forma = 'LUCRO PRESUMIDO';
    }
    if (!r.chance(p)) return [];
    const from = Math.max(2016, yearOf(c.startDay));
    const to = Math.min(2024, c.closedYear ?? 2024, this.lastYear - 1);
    if (from > to) return [];
    const first = r.chance(0.6) ? from : r.range(from, to);
    const last = r.chance(0.7) ? to : r.range(first, to);
    const est = establishments.length > 1 && r.chance(0.05) ? r.pick(establishments) : establishments[0];
    const cnpj = formatCnpj(est.cnpj);
    const rows: Array<[number, string, string, string, number]> = [];
    const switchAt = forma === 'LUCRO PRESUMIDO' && r.chance(0.1) ? r.range(first, last) : 9999;
    for (let y = first; y <= last; y++) {
      const f = y >= switchAt ? 'LUCRO REAL' : forma;
      const scp = r.chance(0.005) ? formatCnpj(makeCnpj(r.digits(8), '0001')) : '0';
      rows.push([y, cnpj, scp, f, r.chance(0.03) ? 2 : 1]);
    }
    return rows;
  }
}
