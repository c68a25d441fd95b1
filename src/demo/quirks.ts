// The data quirks of the real dump (docs/receita-dump.md, §7), their base rates, and the
// scheduler that decides where to inject them. Every injection is counted by name for the
// manifest. Quirks draw from their own PRNG stream, so the clean records of a seed are the
// same whatever the quirk rate.

import { Rng } from './prng.ts';

/** Base probability per eligible record (or per shard for the blank line) at quirkRate 1. */
export const QUIRK_RATES = {
  rawNewlineInField: 2e-5, // a raw LF inside a quoted nome_fantasia
  semicolonInComplemento: 5e-4,
  backslashBeforeQuote: 5e-5, // `"POLI BRILHO\"`
  nulInComplemento: 1e-4,
  trailingBlankLine: 0.03, // per shard file
  wrongFieldCount: 2e-5, // the only records an importer must reject
  duplicateEstablishmentKey: 2e-4, // same (basico, ordem, dv) again in a later shard
  duplicateCompanyRow: 1e-4, // the exact Empresas row written twice
  unpaddedSituacao: 5e-4, // `2` instead of `02`
  unpaddedMotivo: 5e-4, // `0` instead of `00`
  dateZero: 1e-4, // `0`
  dateAllZeros: 3e-4, // `00000000` in data_situacao_cadastral
  dateSevenDigits: 5e-5, // `2021221`
  dateImpossible: 5e-5, // `20230231`
  dateAncientYear: 5e-5, // year `0202`
  cepSevenDigits: 5e-3, // of CEPs starting with 0 (≈0.1% of all)
  capitalPadded: 5e-4, // `000000018000,00`
  capitalSentinel: 2e-6, // `999999999999,00`
  orphanMotivo32: 3e-4, // motivo 32 on inapta/baixada establishments; absent from Motivos
  orphanPais994: 2e-5, // pais 994; absent from Paises
  orphanQualificacao36: 1e-4, // partner qualificação 36; absent from Qualificacoes
  utf8InLatin1: 0, // not random: fixed in two lookup descriptions
  repeatedSpaces: 1e-3, // `CONJ  54-B`
  trailingSpaces: 1e-3,
} as const;

export type QuirkName = keyof typeof QUIRK_RATES;
export const QUIRK_NAMES = Object.keys(QUIRK_RATES) as QuirkName[];

export class Quirks {
  readonly rng: Rng;
  readonly counts: Record<string, number> = {};
  /** One CNPJ or base where each quirk landed, for tests. */
  readonly examples: Record<string, string> = {};
  private readonly forcedAt: Record<string, number> = {};
  private position = 0;
  private readonly forcedDone = new Set<string>();

  constructor(
    seed: number,
    readonly rate: number,
    companies: number,
  ) {
    this.rng = new Rng(seed, 7);
    for (const name of QUIRK_NAMES) {
      this.counts[name] = 0;
      // Realistic rates give no hits in a small dump, so each quirk is also forced once,
      // at the first eligible record past a seeded point in the first 80% of companies.
      this.forcedAt[name] = Math.floor(this.rng.next() * companies * 0.8);
    }
  }

  get enabled(): boolean {
    return this.rate > 0;
  }

  /** The index of the company being generated (drives the forced placement). */
  at(companyIndex: number): void {
    this.position = companyIndex;
  }

  /**
   * Decides whether to inject `name` on an eligible record; counts it when it says yes.
   * `slot` forces one occurrence per slot instead of per name (e.g. a reject in each family).
   */
  fire(name: QuirkName, example?: string, slot: string = name): boolean {
    if (this.rate <= 0) return false;
    const forced = !this.forcedDone.has(slot) && this.position >= this.forcedAt[name];
    if (!forced && !this.rng.chance(QUIRK_RATES[name] * this.rate)) return false;
    this.forcedDone.add(slot);
    this.hit(name, example);
    return true;
  }

  hit(name: QuirkName, example?: string): void {
    this.counts[name]++;
    if (example !== undefined && this.examples[name] === undefined) this.examples[name] = example;
  }

  // ---- field mutations ----

  rawNewline(s: string): string {
    const i = s.indexOf(' ');
    return i > 0 ? `${s.slice(0, i)}\n${s.slice(i + 1)}` : `${s}\nLTDA`;
  }

  semicolons(c: string): string {
    return `${c || 'EDIF HORTO SAO RAFAEL'};BLOCO ${this.rng.range(1, 9)};ANDAR ${this.rng.range(1, 30)}${this.rng.range(0, 9)}${this.rng.range(1, 8)}`;
  }

  nuls(c: string): string {
    return c + '\u0000'.repeat(this.rng.range(1, 4));
  }

  doubleSpace(s: string): string {
    const i = s.indexOf(' ');
    return i > 0 ? `${s.slice(0, i)}  ${s.slice(i + 1)}` : `${s}  A`;
  }

  trailing(s: string): string {
    return s + ' '.repeat(this.rng.range(1, 6));
  }

  /** A bad date of the given kind, derived from a good `YYYYMMDD`. */
  badDate(
    kind: 'dateZero' | 'dateAllZeros' | 'dateSevenDigits' | 'dateImpossible' | 'dateAncientYear',
    good: string,
  ): string {
    switch (kind) {
      case 'dateZero':
        return '0';
      case 'dateAllZeros':
        return '00000000';
      case 'dateSevenDigits': {
        // the real case was a missing month digit: 2021-02-21 written as 2021221
        const s = good.slice(0, 4) + String(Number(good.slice(4, 6))) + good.slice(6);
        return s.length === 7 ? s : good.slice(0, 7);
      }
      case 'dateImpossible':
        return `${good.slice(0, 4)}${this.rng.pick(['0231', '0230', '0431', '0931', '1131', '1301'])}`;
      case 'dateAncientYear':
        return `0${good.slice(0, 3)}${good.slice(4)}`;
    }
  }
}
