// Checks an evolved synthetic month against the importer: compares two imported snapshots (the
// month before and the evolved one) and counts their differences by the kinds of change of
// src/demo/evolve-changes.ts, to be compared with the evolved manifest's `changes`.
//   node --import tsx scripts/evolve-check.ts --data-dir D --manifest DIR2/manifest.json
// Each company changes in one way at most a month, so a difference's kind is told by its fields.

import Database from 'better-sqlite3';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DumpManifest } from '../src/demo/manifest.ts';

/** The newest snapshot folder of `month` in a data directory. */
export function snapshotDir(dataDir: string, month: string): string {
  const names = readdirSync(join(dataDir, 'registry'))
    .filter((n) => n.startsWith(`${month}_`))
    .sort();
  if (!names.length) throw new Error(`no snapshot of ${month} in ${dataDir}`);
  return join(dataDir, 'registry', names[names.length - 1]);
}

const ADDRESS = ['tipo_logradouro', 'logradouro', 'numero', 'complemento', 'bairro', 'cep'];
const SIT_KIND: Record<number, string> = { 8: 'baixa', 4: 'inapta', 3: 'suspensa', 2: 'reativacao' };

function establishmentKind(a: Record<string, unknown>, b: Record<string, unknown>): string {
  const diff = (c: string) => a[c] !== b[c];
  if (diff('situacao_cadastral')) return SIT_KIND[b.situacao_cadastral as number] ?? 'situacao?';
  if (diff('uf')) return 'uf';
  if (diff('municipio')) return 'municipio';
  if (ADDRESS.some(diff)) return 'endereco';
  if (diff('cnae_fiscal')) return 'cnae';
  if (diff('cnaes_secundarios')) return 'cnae_secundaria';
  if (diff('nome_fantasia')) return 'nome_fantasia';
  if (diff('telefone_1') || diff('ddd_1')) return 'telefone';
  if (diff('email')) return 'email';
  return 'other';
}

/** Differences between two snapshots, counted per kind of change (as the manifest counts them). */
export function countDifferences(oldDir: string, newDir: string): Record<string, number> {
  const counts: Record<string, number> = {};
  const add = (k: string, n = 1) => {
    counts[k] = (counts[k] ?? 0) + n;
  };
  const db = new Database(join(newDir, 'establishments.db'), { readonly: true });
  db.exec(
    `ATTACH '${join(oldDir, 'establishments.db')}' AS o; ATTACH '${join(newDir, 'companies.db')}' AS nc; ATTACH '${join(oldDir, 'companies.db')}' AS oc`,
  );
  add(
    'abertura',
    (
      db
        .prepare('SELECT count(*) n FROM main.establishments WHERE cnpj NOT IN (SELECT cnpj FROM o.establishments)')
        .get() as { n: number }
    ).n,
  );
  add(
    'encerramento',
    (
      db
        .prepare('SELECT count(*) n FROM o.establishments WHERE cnpj NOT IN (SELECT cnpj FROM main.establishments)')
        .get() as { n: number }
    ).n,
  );
  const rows = db.prepare('SELECT * FROM main.establishments EXCEPT SELECT * FROM o.establishments').all() as Array<
    Record<string, unknown>
  >;
  const old = db.prepare('SELECT * FROM o.establishments WHERE cnpj = ?');
  const closed = new Set<string>();
  for (const b of rows) {
    const a = old.get(b.cnpj) as Record<string, unknown> | undefined;
    if (!a) continue;
    const k = establishmentKind(a, b);
    if (k === 'baixa') closed.add((b.cnpj as string).slice(0, 8));
    add(k);
  }
  // company-level: only bases in both months
  const both = 'basico IN (SELECT basico FROM oc.companies)';
  for (const b of db
    .prepare(`SELECT * FROM nc.companies WHERE ${both} EXCEPT SELECT * FROM oc.companies`)
    .all() as Array<Record<string, unknown>>) {
    const a = db.prepare('SELECT * FROM oc.companies WHERE basico = ?').get(b.basico) as Record<string, unknown>;
    add(
      a.razao_social !== b.razao_social
        ? 'razao_social'
        : a.natureza_juridica !== b.natureza_juridica
          ? 'natureza_juridica'
          : a.capital_social_cents !== b.capital_social_cents
            ? 'capital_social'
            : a.porte !== b.porte
              ? 'porte'
              : 'other',
    );
  }
  const simplesOf = (schema: string, basico: unknown) =>
    db.prepare(`SELECT * FROM ${schema}.simples WHERE basico = ?`).get(basico) as Record<string, unknown> | undefined;
  for (const b of db.prepare(`SELECT * FROM nc.simples WHERE ${both} EXCEPT SELECT * FROM oc.simples`).all() as Array<
    Record<string, unknown>
  >) {
    if (closed.has(b.basico as string)) continue; // a closing ends the option too
    const a = simplesOf('oc', b.basico);
    if (a?.opcao_simples !== b.opcao_simples) add(b.opcao_simples === 'S' ? 'simples_entrada' : 'simples_saida');
    else add(b.opcao_mei === 'S' ? 'mei_entrada' : 'mei_saida');
  }
  // the regime: the forma of the latest year (the lookup's regime_tributario), per base
  const latest = (schema: string, basico: unknown) =>
    (
      db.prepare(`SELECT forma FROM ${schema}.regimes WHERE basico = ? ORDER BY ano DESC LIMIT 1`).get(basico) as
        { forma: string } | undefined
    )?.forma;
  for (const { basico } of db
    .prepare(`SELECT DISTINCT basico FROM (SELECT * FROM nc.regimes WHERE ${both} EXCEPT SELECT * FROM oc.regimes)`)
    .all() as Array<{ basico: string }>) {
    add(latest('oc', basico) !== latest('nc', basico) ? 'regime_tributario' : 'other');
  }
  const partners = (schema: string, basico: unknown) =>
    db.prepare(`SELECT * FROM ${schema}.partners WHERE basico = ? ORDER BY nome, cnpj_cpf`).all(basico) as Array<
      Record<string, unknown>
    >;
  const changedBases = db
    .prepare(
      `SELECT basico FROM (SELECT * FROM nc.partners WHERE ${both} EXCEPT SELECT * FROM oc.partners)
    UNION SELECT basico FROM (SELECT * FROM oc.partners WHERE basico IN (SELECT basico FROM nc.companies) EXCEPT SELECT * FROM nc.partners)`,
    )
    .all() as Array<{ basico: string }>;
  for (const { basico } of changedBases) {
    const [a, b] = [partners('oc', basico), partners('nc', basico)];
    add(b.length > a.length ? 'socio_entrada' : b.length < a.length ? 'socio_saida' : 'socio_qualificacao');
  }
  db.close();
  return counts;
}

/** Kind → [manifest count, snapshot count] where they differ. */
export function compareWithManifest(m: DumpManifest, found: Record<string, number>): Record<string, [number, number]> {
  const bad: Record<string, [number, number]> = {};
  for (const k of new Set([...Object.keys(m.changes ?? {}), ...Object.keys(found)])) {
    const want = m.changes?.[k]?.count ?? 0;
    if (want !== (found[k] ?? 0)) bad[k] = [want, found[k] ?? 0];
  }
  return bad;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (name: string) => process.argv[process.argv.indexOf(`--${name}`) + 1];
  const m = JSON.parse(readFileSync(arg('manifest'), 'utf8')) as DumpManifest;
  if (!m.evolvedFrom) throw new Error('not an evolved month');
  const found = countDifferences(
    snapshotDir(arg('data-dir'), m.evolvedFrom.month),
    snapshotDir(arg('data-dir'), m.month),
  );
  const bad = compareWithManifest(m, found);
  console.log(JSON.stringify({ found, mismatches: bad }, null, 1));
  process.exitCode = Object.keys(bad).length ? 1 : 0;
}
