// What a synthetic dump's manifest.json says about it: what went in, what an importer should
// find, and where the quirks landed.

export interface DumpManifest {
  month: string;
  synthetic: true;
  seed: number;
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
