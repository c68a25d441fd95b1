// Builders for the clean records of one synthetic company: the Empresas row, its
// establishments, partners, Simples row and regime rows. Proportions follow the real counts
// (docs/receita-dump.md §2): about half the companies are individual entrepreneurs (MEI, no partners),
// ~1.05 establishments and ~0.4 partners per company, Simples for ~60%, regimes for ~15%.
// Quirks are applied by generate.ts, not here. What each piece draws lives beside it: kinds.ts
// (the company's kind and traits), names.ts, establishment-fields.ts, partners.ts, tax.ts.

import { makeCnpj } from '../domain/cnpj.ts';
import type { Company, Establishment } from './company.ts';
import { between, dayOf, yearOf, ymd } from './days.ts';
import { complemento, cep, email, fantasia, phone, secondaryCnaes } from './establishment-fields.ts';
import { branchCount, capital, NATUREZA_MIX, porte, principalCnae } from './kinds.ts';
import type { CodeTables } from './code-tables.ts';
import { companyName } from './names.ts';
import { partnerRows } from './partners.ts';
import { UF_MUNICIPIOS } from './places-data.ts';
import { Weighted, type Rng } from './prng.ts';
import type { Holding, PartnerPool } from './shared-partners.ts';
import { drawSimples, regimeRows, type RegimeRow } from './tax.ts';
import {
  BRAND_WORDS,
  FOREIGN_CITIES,
  NEIGHBOURHOOD_PREFIXES,
  SPECIAL_SITUATIONS,
  STREET_NAMES,
  STREET_TYPES,
} from './words.ts';

// situação cadastral as in the real registry: most are not active (about half baixada 08, 40–45%
// ativa 02, 5–8% inapta 04, a few suspensa 03 and nula 01), and plausible motivos for each
const SITUACAO = new Weighted<string>([
  ['02', 44],
  ['08', 48.5],
  ['04', 7],
  ['03', 0.2],
  ['01', 0.3],
]);
export const MOTIVO_BY_SITUACAO: Record<string, Weighted<string>> = {
  '02': new Weighted([['00', 1]]),
  '08': new Weighted([
    ['01', 60],
    ['71', 12],
    ['80', 5],
    ['54', 4],
    ['02', 1],
    ['09', 2],
    ['62', 2],
    ['75', 3],
    ['31', 3],
  ]),
  '04': new Weighted([
    ['63', 85],
    ['66', 8],
    ['64', 5],
    ['15', 2],
  ]),
  '03': new Weighted([
    ['18', 50],
    ['73', 30],
    ['61', 20],
  ]),
  '01': new Weighted([
    ['11', 30],
    ['12', 30],
    ['16', 20],
    ['34', 20],
  ]),
};

// Opening-year weights: few old companies, the MEI boom from 2009, most since 2020.
function yearWeights(lastYear: number): Weighted<number> {
  const pairs: Array<[number, number]> = [];
  for (let y = 1960; y <= lastYear; y++)
    pairs.push([y, y < 1990 ? 0.3 : y < 2000 ? 1 : y < 2009 ? 1.5 : y < 2020 ? 3.5 : 6]);
  return new Weighted(pairs);
}

export class RowFactory {
  private readonly natureza = new Weighted(NATUREZA_MIX.map((n) => [n, n[1]] as const));
  // UFs by population (SP ~22%, MG ~10%, RJ ~8% … RR ~0.3%)
  private readonly ufPicker = new Weighted(UF_MUNICIPIOS.map(([uf, , population]) => [uf, population] as const));
  private readonly streetTypes = new Weighted(STREET_TYPES);
  private readonly years: Weighted<number>;
  private readonly lastDay: number;
  private readonly lastYear: number;
  private readonly alnumFrom: number;

  constructor(
    readonly rng: Rng,
    readonly lk: CodeTables,
    /** Extraction day: nothing in the data is later. */
    extractionDay: number,
    readonly pool: PartnerPool,
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

  private day(): number {
    const y = this.years.pick(this.rng);
    const start = dayOf(y, 1, 1);
    return Math.min(start + this.rng.int(365), this.lastDay);
  }

  // ---- the company ----

  /**
   * `holding`: the shared partner this company is, if any (an active limitada with its name).
   * `openedFrom`: a company that opened on or after this day (an opening of the next month): active since.
   */
  company(index: number, base: string, alnum: boolean, holding: Holding | null = null, openedFrom?: number): Company {
    const r = this.rng;
    let [natureza, , kind, qualResp] = this.natureza.pick(r);
    if (holding) [natureza, kind, qualResp] = ['2062', 'ltda', '49'];
    const uf = this.ufPicker.pick(r);
    const municipio = this.lk.municipioPickers.get(uf)!.pick(r);
    const razao = holding ? holding.name : companyName(r, kind, base, municipio);
    const opened = openedFrom ?? (alnum ? this.alnumFrom : undefined);
    const startDay = opened !== undefined ? between(r, opened, this.lastDay) : this.day();
    let situacao = alnum || holding || openedFrom !== undefined ? '02' : SITUACAO.pick(r);
    if (kind === 'candidate' && !alnum && openedFrom === undefined) situacao = r.chance(0.8) ? '08' : '02';
    const sitDay =
      situacao === '02'
        ? r.chance(0.7)
          ? startDay
          : between(r, startDay, this.lastDay)
        : between(r, startDay, this.lastDay);
    const cnae = holding ? '6462000' : principalCnae(r, this.lk, kind);
    // Only public bodies name their federative entity; municipal ones as `CITY - UF`.
    const ente = kind === 'public' ? `${municipio.desc} - ${uf}` : '';
    const c: Company = {
      index,
      base,
      natureza,
      kind,
      razao,
      qualResp,
      capital: capital(r, kind),
      porte: porte(r, kind),
      ente,
      startDay,
      uf,
      municipio,
      cnae,
      situacao,
      sitDay,
      closedYear: situacao === '08' ? yearOf(sitDay) : null,
      simples: null,
      simplesActive: false,
      branches: branchCount(r, kind),
    };
    drawSimples(r, c, this.lastDay);
    return c;
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
      startDay = between(r, c.startDay, this.lastDay);
      if (c.situacao === '08') sitDay = between(r, startDay, Math.max(startDay, c.sitDay));
      else {
        situacao = r.chance(0.3) ? '08' : c.situacao;
        sitDay = situacao === '02' ? startDay : between(r, startDay, this.lastDay);
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
    const nomeFantasia = fantasia(r, c);
    const secondary = r.chance(0.5) ? secondaryCnaes(r, this.lk, c.cnae) : '';
    const numero = r.chance(0.09)
      ? r.pick(['S/N', 'S/N', 'SN', '0'])
      : String(r.chance(0.7) ? r.range(1, 999) : r.range(1000, 9999));
    const compl = r.chance(0.45) ? complemento(r) : '';
    const bairro = foreign
      ? cidadeExterior
      : r.chance(0.2)
        ? 'CENTRO'
        : `${r.pick(NEIGHBOURHOOD_PREFIXES)} ${r.pick(BRAND_WORDS)}`;
    const zip = foreign ? '' : cep(r, uf);
    const [ddd1, tel1] = r.chance(0.85) && !foreign ? phone(r, uf) : ['', ''];
    const [ddd2, tel2] = tel1 && r.chance(0.15) ? phone(r, uf) : ['', ''];
    const [dddFax, fax] = tel1 && r.chance(0.03) ? phone(r, uf) : ['', ''];
    const mail = r.chance(0.55) ? email(r, c) : '';
    const special = r.chance(0.0005) ? r.pick(SPECIAL_SITUATIONS) : '';
    const fields = [
      c.base,
      order,
      cnpj.slice(12),
      matriz ? '1' : '2',
      nomeFantasia,
      situacao,
      ymd(sitDay),
      motivo,
      cidadeExterior,
      pais,
      ymd(startDay),
      c.cnae,
      secondary,
      this.streetTypes.pick(r),
      r.pick(STREET_NAMES),
      numero,
      compl,
      bairro,
      zip,
      uf,
      municipio.code,
      ddd1,
      tel1,
      ddd2,
      tel2,
      dddFax,
      fax,
      mail,
      special,
      special ? ymd(between(r, startDay, this.lastDay)) : '',
    ];
    return { order, cnpj, fields };
  }

  // ---- partners, tax regimes ----

  partners(c: Company): string[][] {
    return partnerRows(this.rng, c, this.lastDay, this.pool);
  }

  /** [year, formatted cnpj, scp, forma, quantidade] rows for this company. */
  regimes(c: Company, establishments: readonly Establishment[]): RegimeRow[] {
    return regimeRows(this.rng, c, establishments, this.lastYear);
  }
}
