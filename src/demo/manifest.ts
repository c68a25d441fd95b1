// What a synthetic dump's manifest.json says about it: what went in, what an importer should
// find, and where the quirks landed.

/** What one kind of change did in an evolved month (src/demo/evolve-changes.ts). */
export interface ChangeSummary {
  /** Establishments touched, or companies for a company-level kind (`unit`). */
  count: number;
  unit: 'estabelecimento' | 'empresa';
  /** The lookup fields that change (`socios`: the partner set); none for abertura/encerramento. */
  campos: string[];
  /** Up to 5 CNPJs changed this way (the head office for a company-level kind). */
  examples: string[];
  /** abertura only: new companies (count is their establishments). */
  companies?: number;
}

export interface DumpManifest {
  month: string;
  synthetic: true;
  /** The seed of this month: the generator's, or the changes' in an evolved month. */
  seed: number;
  /** Companies drawn for the base month (fixed real records not included). */
  companies?: number;
  quirkRate?: number;
  /** An evolved month: the month and seed it was evolved from. */
  evolvedFrom?: { month: string; seed: number };
  /** An evolved month: the base and every step, what a further month replays. */
  evolution?: {
    base: { month: string; seed: number; companies: number; quirkRate: number };
    steps: Array<{ month: string; seed: number }>;
  };
  /** An evolved month: what changed since the month before, per kind. */
  changes?: Record<string, ChangeSummary>;
  files: string[];
  /** Well-formed records written per family (duplicates included, rejects excluded). */
  counts: Record<string, number>;
  /** How many of each quirk were injected, by name. */
  quirks: Record<string, number>;
  duplicates: { establishments: number; companies: number };
  /** ~20 valid CNPJs that exist and carry no quirk, incl. SERPRO, OKBR and an alphanumeric one. */
  sampleCnpjs: string[];
  /** Records with a wrong field count: the only ones an importer should reject. */
  expectedRejects: number;
  /** Rejects per family. */
  rejects: Record<string, number>;
  /** Rows an importer should end up with per family (after rejects and last-wins dedup). */
  expectedRows: Record<string, number>;
  /** One CNPJ or base per quirk, where it can be pinned to a record. */
  examples: Record<string, string>;
  /** The extraction date in the member names (`D` + last year digit + MMDD). */
  extractionDate: string;
  totalZipBytes: number;
}
