// The kinds of change the next-month mode (evolve.ts) makes to a drawn company, each with its
// monthly rate, the lookup fields (`campo`) it touches and how it is applied. `apply` first checks
// that the company is eligible (without drawing) and returns null if not; otherwise it changes the
// rows in place and returns the CNPJs it touched (the establishments, or the head office for a
// company-level change). Every new value differs from the old one, so every example really changed.
//
// Rates are per company and month, drawn once per company (one change at most per company and
// month). They are aimed at the Mapa de Empresas (MDIC) counts: ~4.1 M openings and ~2.3 M
// closings a year in 2024 against ~60 M bases in the dump, i.e. ~0.55% and ~0.33% of all
// companies a month; since only about half the dump is open, the closing rate is ~0.66% of the
// draws (a closed company is not eligible). The other rates are estimates of the same order
// (a few per thousand active companies a month for moves and contact changes, about one per
// thousand for activity, name, capital, regime and partner changes): no public monthly series exists.

import type { CompanyRecords, Placed } from './draw.ts';
import { between, ymd } from './days.ts';
import { cep, email, fantasia, phone, secondaryCnaes, complemento } from './establishment-fields.ts';
import { capital, principalCnae } from './kinds.ts';
import type { CodeTables } from './code-tables.ts';
import { companyName } from './names.ts';
import { partner } from './partners.ts';
import { UF_MUNICIPIOS } from './places-data.ts';
import { Weighted, type Rng } from './prng.ts';
import { MOTIVO_BY_SITUACAO } from './rows.ts';
import type { PartnerPool } from './shared-partners.ts';
import { BRAND_WORDS, NEIGHBOURHOOD_PREFIXES, STREET_NAMES, STREET_TYPES } from './words.ts';

export interface ChangeCtx {
  r: Rng;
  lk: CodeTables;
  pool: PartnerPool;
  /** The days this month's changes fall on: after the previous extraction, before this one. */
  from: number;
  to: number;
}

export interface ChangeKind {
  rate: number;
  unit: 'estabelecimento' | 'empresa';
  campos: string[];
  apply(x: ChangeCtx, rec: CompanyRecords): string[] | null;
}

const Z = '00000000';
const streetTypes = new Weighted(STREET_TYPES);
const ufPicker = new Weighted(UF_MUNICIPIOS.map(([uf, , population]) => [uf, population] as const));
const day = (x: ChangeCtx) => ymd(between(x.r, x.from, x.to));
const open = (rec: CompanyRecords) => rec.estabs.filter((e) => e.rows[0].row[5] === '02' && e.rows[0].row[19] !== 'EX');
const headOpen = (rec: CompanyRecords) => rec.estabs[0].rows[0].row[5] === '02';
/** A new value from `draw` that differs from `old` (a few tries, then a marked variant). */
function fresh(old: string, draw: () => string, fallback: (s: string) => string): string {
  for (let i = 0; i < 5; i++) {
    const v = draw();
    if (v !== old) return v;
  }
  return fallback(old);
}

/** One open establishment of the company (drawn; `ok` narrows them), changed by `f`; null when none is open. */
function onEstab(
  f: (x: ChangeCtx, row: string[], rec: CompanyRecords) => void,
  ok: (row: string[]) => boolean = () => true,
) {
  return (x: ChangeCtx, rec: CompanyRecords): string[] | null => {
    const list = open(rec).filter((e) => ok(e.rows[0].row));
    if (!list.length) return null;
    const e = list.length === 1 ? list[0] : list[x.r.int(list.length)];
    f(x, e.rows[0].row, rec);
    return [e.cnpj];
  };
}

function setSituacao(x: ChangeCtx, row: string[], situacao: string, motivo: string): void {
  row[5] = situacao;
  row[6] = day(x);
  row[7] = motivo;
}

function move(x: ChangeCtx, row: string[], scope: 'street' | 'city' | 'uf'): void {
  if (scope === 'uf')
    row[19] = fresh(
      row[19],
      () => ufPicker.pick(x.r),
      (s) => (s === 'SP' ? 'RJ' : 'SP'),
    );
  // (the Federal District has one município, so a move there is to another UF; see CHANGE_KINDS.municipio)
  const others = (s: string) => x.lk.municipios.find((m) => m.uf === row[19] && m.code !== s)!.code;
  if (scope !== 'street') row[20] = fresh(row[20], () => x.lk.municipioPickers.get(row[19])!.pick(x.r).code, others);
  row[13] = streetTypes.pick(x.r);
  row[14] = fresh(
    row[14],
    () => x.r.pick(STREET_NAMES),
    (s) => `${s} II`,
  );
  row[15] = String(x.r.range(1, 2999));
  row[16] = x.r.chance(0.45) ? complemento(x.r) : '';
  row[17] = x.r.chance(0.2) ? 'CENTRO' : `${x.r.pick(NEIGHBOURHOOD_PREFIXES)} ${x.r.pick(BRAND_WORDS)}`;
  row[18] = fresh(
    row[18],
    () => cep(x.r, row[19]),
    (s) => s.slice(0, 5) + '999',
  );
}

/** The Simples row, opting out of the Simples (and the MEI) or of the MEI only, on `d`. */
function leaveSimples(s: string[], d: string, meiOnly: boolean): void {
  if (s[4] === 'S') [s[4], s[6]] = ['N', d];
  if (!meiOnly && s[1] === 'S') [s[1], s[3]] = ['N', d];
}

const ADDRESS = ['tipo_logradouro', 'logradouro', 'numero', 'complemento', 'bairro', 'cep'];
// Another forma of the same family as tax.ts draws them (Lucro Presumido: see regime_tributario).
const OTHER_FORMA: Record<string, string> = {
  'LUCRO REAL': 'LUCRO PRESUMIDO',
  'LUCRO ARBITRADO': 'LUCRO PRESUMIDO',
  'IMUNE DO IRPJ': 'ISENTA DO IRPJ',
  'ISENTA DO IRPJ': 'IMUNE DO IRPJ',
};
const SITUACAO = ['situacao_cadastral', 'data_situacao_cadastral', 'motivo_situacao_cadastral'];

export const CHANGE_KINDS: Record<string, ChangeKind> = {
  baixa: {
    // the company closes: every establishment not yet closed, and its Simples/MEI option ends
    rate: 0.0066,
    unit: 'estabelecimento',
    campos: [...SITUACAO, 'opc_simples', 'opc_mei'],
    apply(x, rec) {
      const head = rec.estabs[0].rows[0].row;
      if (!['02', '03', '04'].includes(head[5])) return null;
      const d = day(x);
      const motivo = MOTIVO_BY_SITUACAO['08'].pick(x.r);
      const hit: string[] = [];
      for (const e of rec.estabs) {
        const row = e.rows[0].row;
        if (row[5] === '08') continue;
        [row[5], row[6], row[7]] = ['08', d, motivo];
        hit.push(e.cnpj);
      }
      if (rec.simples) leaveSimples(rec.simples, d, false);
      return hit;
    },
  },
  inapta: {
    rate: 0.0016,
    unit: 'estabelecimento',
    campos: SITUACAO,
    apply: onEstab((x, row) => setSituacao(x, row, '04', x.r.chance(0.85) ? '63' : '73')),
  },
  suspensa: {
    rate: 0.0002,
    unit: 'estabelecimento',
    campos: SITUACAO,
    apply: onEstab((x, row) => setSituacao(x, row, '03', x.r.pick(['18', '73', '61']))),
  },
  reativacao: {
    rate: 0.0006,
    unit: 'estabelecimento',
    campos: SITUACAO,
    apply(x, rec) {
      const e = rec.estabs.find((s) => s.rows[0].row[5] === '04');
      if (!e) return null;
      setSituacao(x, e.rows[0].row, '02', '00');
      return [e.cnpj];
    },
  },
  encerramento: {
    // a branch that is no longer in the dump at all (rare; the head office always stays)
    rate: 0.0004,
    unit: 'estabelecimento',
    campos: [],
    apply(x, rec) {
      if (rec.estabs.length < 2) return null;
      return [rec.estabs.splice(1 + x.r.int(rec.estabs.length - 1), 1)[0].cnpj];
    },
  },
  endereco: {
    rate: 0.005,
    unit: 'estabelecimento',
    campos: ADDRESS,
    apply: onEstab((x, row) => move(x, row, 'street')),
  },
  municipio: {
    rate: 0.0016,
    unit: 'estabelecimento',
    campos: [...ADDRESS, 'municipio'],
    apply: onEstab(
      (x, row) => move(x, row, 'city'),
      (row) => row[19] !== 'DF',
    ),
  },
  uf: {
    rate: 0.0003,
    unit: 'estabelecimento',
    campos: [...ADDRESS, 'municipio', 'uf'],
    apply: onEstab((x, row) => move(x, row, 'uf')),
  },
  cnae: {
    rate: 0.0016,
    unit: 'estabelecimento',
    campos: ['cnae_fiscal'],
    apply: onEstab((x, row, rec) => {
      row[11] = fresh(
        row[11],
        () => principalCnae(x.r, x.lk, rec.c.kind),
        () => x.lk.cnaePicker.pick(x.r),
      );
      row[12] = row[12]
        .split(',')
        .filter((c) => c && c !== row[11])
        .join(',');
    }),
  },
  cnae_secundaria: {
    rate: 0.0016,
    unit: 'estabelecimento',
    campos: ['cnaes_secundarios'],
    apply: onEstab((x, row) => {
      row[12] = fresh(
        row[12],
        () => secondaryCnaes(x.r, x.lk, row[11]),
        (s) => (s ? '' : '4751201'),
      );
    }),
  },
  nome_fantasia: {
    rate: 0.0016,
    unit: 'estabelecimento',
    campos: ['nome_fantasia'],
    apply: onEstab((x, row, rec) => {
      row[4] = fresh(
        row[4],
        () => fantasia(x.r, rec.c),
        (s) => `${s} NOVA`.trim(),
      );
    }),
  },
  telefone: {
    rate: 0.004,
    unit: 'estabelecimento',
    campos: ['ddd_1', 'telefone_1'],
    apply: onEstab((x, row) => {
      const [ddd, tel] = phone(x.r, row[19]);
      [row[21], row[22]] = [ddd, tel === row[22] ? `9${tel.slice(1)}` : tel];
    }),
  },
  email: {
    rate: 0.004,
    unit: 'estabelecimento',
    campos: ['email'],
    apply: onEstab((x, row, rec) => {
      row[27] = fresh(
        row[27],
        () => email(x.r, rec.c),
        (s) => `novo.${s || 'contato@gmail.com'}`,
      );
    }),
  },
  razao_social: {
    rate: 0.001,
    unit: 'empresa',
    campos: ['razao_social'],
    apply: company((x, rec, e) => {
      e[1] = fresh(
        e[1],
        () => companyName(x.r, rec.c.kind, rec.c.base, rec.c.municipio),
        (s) => `${s} NOVA`,
      );
    }),
  },
  natureza_juridica: {
    // EIRELI → sociedade limitada unipessoal (Lei 14.195/2021), still happening
    rate: 0.001,
    unit: 'empresa',
    campos: ['natureza_juridica'],
    apply: company(
      (_x, _rec, e) => {
        e[2] = '2062';
        e[3] = '49';
      },
      (rec) => rec.empresa[0].row[2] === '2305',
    ),
  },
  capital_social: {
    rate: 0.0012,
    unit: 'empresa',
    campos: ['capital_social'],
    apply: company((x, rec, e) => {
      e[4] = fresh(
        e[4],
        () => capital(x.r, rec.c.kind),
        () => `${x.r.range(1, 999) * 1000},00`,
      );
    }),
  },
  porte: {
    rate: 0.0008,
    unit: 'empresa',
    campos: ['porte'],
    apply: company(
      (x, _rec, e) => {
        e[5] = e[5] === '01' ? '03' : e[5] === '03' ? x.r.pick(['01', '05']) : '03';
      },
      (rec) => rec.c.kind !== 'mei',
    ),
  },
  simples_entrada: {
    // outside January only newly opened companies may opt in; these are the late approvals
    rate: 0.0016,
    unit: 'empresa',
    campos: ['opc_simples'],
    apply: company(
      (x, rec) => {
        const d = day(x);
        if (!rec.simples) rec.simples = [rec.c.base, 'S', d, Z, 'N', Z, Z];
        else [rec.simples[1], rec.simples[2], rec.simples[3]] = ['S', d, Z];
      },
      (rec) =>
        ['ltda', 'eireli', 'other'].includes(rec.c.kind) && rec.simples?.[1] !== 'S' && rec.empresa[0].row[5] !== '05',
    ),
  },
  simples_saida: {
    rate: 0.002,
    unit: 'empresa',
    campos: ['opc_simples', 'opc_mei'],
    apply: company(
      (x, rec) => leaveSimples(rec.simples!, day(x), false),
      (rec) => rec.simples?.[1] === 'S',
    ),
  },
  mei_entrada: {
    rate: 0.0008,
    unit: 'empresa',
    campos: ['opc_mei'],
    apply: company(
      (x, rec) => {
        const s = rec.simples!;
        [s[4], s[5], s[6]] = ['S', day(x), Z];
      },
      (rec) => rec.c.kind === 'mei' && rec.simples?.[1] === 'S' && rec.simples[4] !== 'S',
    ),
  },
  mei_saida: {
    rate: 0.0024,
    unit: 'empresa',
    campos: ['opc_mei'],
    apply: company(
      (x, rec) => leaveSimples(rec.simples!, day(x), true),
      (rec) => rec.simples?.[4] === 'S',
    ),
  },
  regime_tributario: {
    // the latest year's ECF declared again under another forma (Presumido ↔ Real past the revenue
    // limit, Imune ↔ Isenta); about one per thousand like the other company fields. The rows are
    // written after the changes, so RegimeFiles puts them in the new forma's zip.
    rate: 0.001,
    unit: 'empresa',
    campos: ['regime_tributario'],
    apply: company(
      (x, rec) => {
        const last = Math.max(...rec.regimes.map((g) => g[0]));
        const rows = rec.regimes.filter((g) => g[0] === last);
        const forma = OTHER_FORMA[rows[0][3]] ?? (x.r.chance(0.98) ? 'LUCRO REAL' : 'LUCRO ARBITRADO');
        for (const g of rows) g[3] = forma;
      },
      (rec) => rec.regimes.length > 0,
    ),
  },
  socio_entrada: {
    rate: 0.002,
    unit: 'empresa',
    campos: ['socios'],
    apply: company(
      (x, rec) => {
        const row = partner(x.r, rec.c, rec.socios.length, x.to, x.pool, []);
        row[5] = day(x);
        if (rec.socios.some((p) => p.row[2] === row[2] && p.row[3] === row[3])) row[2] += ' FILHO';
        rec.socios.push({ shard: rec.socios[0]?.shard ?? x.r.int(10), row });
      },
      (rec) => !['mei', 'candidate', 'rural', 'public'].includes(rec.c.kind),
    ),
  },
  socio_saida: {
    rate: 0.0016,
    unit: 'empresa',
    campos: ['socios'],
    apply: company(
      (x, rec) => {
        rec.socios.splice(x.r.int(rec.socios.length), 1);
      },
      (rec) => rec.socios.length > 0,
    ),
  },
  socio_qualificacao: {
    rate: 0.0006,
    unit: 'empresa',
    campos: ['socios'],
    apply: company(
      (x, rec) => {
        const p: Placed = rec.socios.find((s) => s.row[4] === '49' || s.row[4] === '22')!;
        p.row[4] = p.row[4] === '49' ? '22' : '49';
      },
      (rec) => rec.socios.some((s) => s.row[4] === '49' || s.row[4] === '22'),
    ),
  },
};

/** A company-level change of an open company; `eligible` adds a condition. */
function company(
  f: (x: ChangeCtx, rec: CompanyRecords, e: string[]) => void,
  eligible: (rec: CompanyRecords) => boolean = () => true,
) {
  return (x: ChangeCtx, rec: CompanyRecords): string[] | null => {
    if (!headOpen(rec) || !eligible(rec)) return null;
    f(x, rec, rec.empresa[0].row);
    return [rec.estabs[0].cnpj];
  };
}
