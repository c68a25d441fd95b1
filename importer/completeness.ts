// What a month must hold to be published. A partial month would replace (and prune) a good one
// and turn every lookup into a counted 404, so an import refuses, unless --allow-partial, when:
// - before the load (no waiting for a refusal): a required group is missing, or a sharded
//   group's numbers have a gap;
// - before the load, from the members' extraction dates: files extracted weeks apart (stale copies
//   of an older month among the new ones), or every file extracted on the same day as the active
//   snapshot's (the same data again);
// - after the load: a required table is empty; most of a table's lines were rejected or collapsed
//   as duplicates (a garbage file); establishments, companies, partners or Simples hold fewer than
//   90% of the active snapshot's rows (a truncated or half-downloaded month), a code table fewer
//   than half of its rows.
// The tax-regime files are supplementary: missing ones only warn.
import path from 'node:path';
import type { SnapshotInfo, TableStats } from '../src/storage/snapshots/records.ts';
import { CODE_TABLES } from '../src/storage/snapshots/tables.ts';
import { zipName } from './read/zip.ts';
import { REGIME_ZIPS, type ImportPlan, type SourceFile, type SourceKind } from './import-plan.ts';

type RequiredKind = Exclude<SourceKind, 'regimes'>;

/** Each required group, by the Receita's zip name (without the shard number); each feeds the table of its kind's name. */
const GROUP_NAMES: Record<RequiredKind, string> = {
  companies: 'Empresas',
  establishments: 'Estabelecimentos',
  partners: 'Socios',
  simples: 'Simples',
  cnaes: 'Cnaes',
  motivos: 'Motivos',
  municipios: 'Municipios',
  naturezas: 'Naturezas',
  paises: 'Paises',
  qualificacoes: 'Qualificacoes',
};
const SHARDED: RequiredKind[] = ['companies', 'establishments', 'partners'];
const REQUIRED = Object.keys(GROUP_NAMES) as RequiredKind[];
/** Tables compared with the active snapshot's. */
const COMPARED_TABLES: readonly RequiredKind[] = ['establishments', 'companies', 'partners', 'simples'];
const MIN_SHARE_OF_ACTIVE = 0.9;
/** Code tables change by a few codes a year: one at half its rows lost most of them. */
const MIN_CODE_SHARE_OF_ACTIVE = 0.5;
/**
 * The members of one month are extracted within a few days of each other; a month apart means a
 * file left over from another month (the Receita has published such months).
 */
export const MAX_EXTRACTION_SPREAD_DAYS = 21;
const DAY_MS = 86_400_000;

/** Problems visible in the file list alone. */
export function planProblems(plan: ImportPlan): string[] {
  const problems: string[] = [];
  const kinds = new Set(plan.sources.map((s) => s.kind));
  const missing = REQUIRED.filter((k) => !kinds.has(k)).map((k) => GROUP_NAMES[k]);
  if (missing.length) problems.push(`missing ${missing.join(', ')}`);
  for (const kind of SHARDED) {
    const shards = new Set(
      plan.sources
        .filter((s) => s.kind === kind)
        .map(shardOf)
        .filter((n): n is number => n !== null),
    );
    if (!shards.size) continue;
    const gaps: string[] = [];
    for (let i = 0; i < Math.max(...shards); i++) if (!shards.has(i)) gaps.push(`${GROUP_NAMES[kind]}${i}`);
    if (gaps.length) problems.push(`a gap in the ${GROUP_NAMES[kind]} shards (no ${gaps.join(', ')})`);
  }
  return problems;
}

/** The regime zips not given: optional, but the operator should know. */
export function regimeWarning(plan: ImportPlan): string | null {
  const missing = REGIME_ZIPS.map(([name]) => name).filter((name) => plan.missing.includes(name));
  return missing.length ? `no ${missing.join(', ')}: the month is imported without that tax-regime data` : null;
}

/**
 * A shard's number: from the RFB member name (`K3241.K03200Y3.D60913.EMPRECSV`), a short member
 * name (`Empresas3`), or the zip's name (`Empresas3.zip`, also inside a folder download), in that order.
 */
function shardOf(s: SourceFile): number | null {
  const member = path.posix.basename(s.member.name);
  const m = /Y(\d+)\.D\d{5}\./i.exec(member) ?? /^[a-z]+(\d+)$/i.exec(member) ?? /(\d+)\.zip$/i.exec(zipName(s.zip));
  return m ? Number(m[1]) : null;
}

/**
 * Stale files, from the extraction dates in the member names (members without one, such as the
 * regime CSVs, are not judged): files extracted more than MAX_EXTRACTION_SPREAD_DAYS from the
 * month's date (the one most members carry), and a month whose every file carries the active
 * snapshot's date under another month's name (the active month imported again under its own name
 * is a deliberate re-import, e.g. after an upgrade: its data is what it says it is).
 */
export function staleProblems(plan: ImportPlan, month: string, active: SnapshotInfo | null): string[] {
  const problems: string[] = [];
  const dated = plan.sources.filter((s): s is SourceFile & { extracted: string } => s.extracted !== null);
  if (!plan.extracted || !dated.length) return problems;
  const monthDay = Date.parse(plan.extracted);
  const off = dated.filter((s) => Math.abs(Date.parse(s.extracted) - monthDay) > MAX_EXTRACTION_SPREAD_DAYS * DAY_MS);
  if (off.length) {
    const files = off.map((s) => `${zipName(s.zip)} (${s.extracted})`).join(', ');
    problems.push(
      `stale files: ${files} extracted more than ${MAX_EXTRACTION_SPREAD_DAYS} days from the month's other files (${plan.extracted})`,
    );
  }
  const before = active?.stats.extracted;
  if (before && month !== active!.month && dated.every((s) => s.extracted === before)) {
    problems.push(
      `every file carries the extraction date ${before} of the active snapshot ${active!.id} (${active!.month}): the same data again, not ${month}`,
    );
  }
  return problems;
}

/**
 * Problems visible once the tables are loaded. A table whose group was not given at all is left to
 * planProblems (one message per cause). A synthetic active snapshot (the demo) sets no floor.
 */
export function rowProblems(
  plan: ImportPlan,
  tables: Record<string, TableStats>,
  active: SnapshotInfo | null,
): string[] {
  const problems: string[] = [];
  const n = (x: number) => x.toLocaleString('en-US');
  const given = new Set(plan.sources.map((s) => s.kind));
  for (const name of REQUIRED) {
    const t = tables[name];
    if (!given.has(name)) continue;
    const rejected = t?.rejected ?? 0;
    if (!t || t.rows === 0) {
      problems.push(`${name} has 0 rows${rejected ? ` (all ${n(rejected)} lines rejected)` : ''}`);
      continue;
    }
    // A garbage member still yields a few "rows": its lines mostly fail the field count or collapse
    // onto the same few keys.
    if (t.rejected + t.duplicates > t.rows) {
      problems.push(
        `${name} has ${n(t.rows)} rows from ${n(t.rows + t.rejected + t.duplicates)} lines (${n(t.rejected)} rejected, ${n(t.duplicates)} duplicates): not a ${name} file`,
      );
    }
  }
  if (active && !active.stats.synthetic) {
    const floors = [
      ...COMPARED_TABLES.map((name) => [name, MIN_SHARE_OF_ACTIVE] as const),
      ...CODE_TABLES.map((name) => [name, MIN_CODE_SHARE_OF_ACTIVE] as const),
    ];
    for (const [name, share] of floors) {
      const rows = tables[name]?.rows ?? 0;
      const before = active.stats.tables[name]?.rows ?? 0;
      if (rows > 0 && rows < before * share) {
        const pct = ((rows / before) * 100).toFixed(1);
        problems.push(
          `${name} has ${n(rows)} rows, ${pct}% of the ${n(before)} of the active snapshot ${active.id} (at least ${share * 100}% expected)`,
        );
      }
    }
  }
  return problems;
}

/** The refusal: every problem, what became of the active snapshot, and the way out. */
export function refusal(problems: string[]): string {
  return `Not publishing an incomplete month: ${problems.join('; ')}. The active snapshot is unchanged. Import the complete month, or pass --allow-partial to publish it anyway.`;
}
