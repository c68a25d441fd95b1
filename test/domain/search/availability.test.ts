// A snapshot serves lookups whatever its search files; search is available only with a complete
// search index of this program's version (else the endpoints answer 503 search_unavailable).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { CompanyRegistry } from '../../../src/domain/company/lookup.ts';
import { searchOf } from '../../../src/domain/search/index.ts';
import { runImport } from '../../../importer/run.ts';
import { openSqlite } from '../../../src/storage/sqlite.ts';
import { SEARCH_FILE, SEARCH_SCHEMA_VERSION } from '../../../src/storage/snapshots/search-schema.ts';
import { RECEITA_MINI } from '../../fixtures/index.ts';
import { tempDir } from '../../importer/helpers.ts';

const SERPRO = '33683111000280';

function open(dataDir: string) {
  const lines: string[] = [];
  const registry = new CompanyRegistry({ dataDir, contacts: () => [], pollMs: 0, log: (l) => lines.push(l) });
  return { registry, lines };
}

test('a snapshot without search.db (an older import, or --skip-search): lookups work, search is unavailable', async () => {
  const dataDir = tempDir();
  try {
    const s = await runImport({ dataDir, inputs: [RECEITA_MINI], month: '2026-09', search: false });
    assert.equal(s.search, null);
    assert.ok(!fs.existsSync(path.join(s.dir, SEARCH_FILE)));
    const { registry, lines } = open(dataDir);
    assert.equal(registry.lookup(SERPRO)?.company.cnpj, SERPRO);
    assert.equal(registry.info?.search, false);
    assert.equal(searchOf(registry.snapshot), null);
    assert.match(lines.join('\n'), /search unavailable: the snapshot has no search index/);
    registry.close();
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test('another search version, an unfinished search.db or a missing part: unavailable, lookups unaffected', async () => {
  const dataDir = tempDir();
  try {
    const s = await runImport({ dataDir, inputs: [RECEITA_MINI], month: '2026-09', searchParts: 2 });
    assert.equal(s.search?.parts.length, 2);
    {
      const { registry } = open(dataDir);
      assert.equal(registry.info?.search, true);
      assert.deepEqual(searchOf(registry.snapshot)?.search({ uf: ['DF'] }, { limit: 5 }).cnpjs, [SERPRO]);
      registry.close();
    }
    const setVersion = (v: string | null) => {
      const db = openSqlite(path.join(s.dir, SEARCH_FILE));
      db.prepare(`DELETE FROM meta WHERE key = 'search_version'`).run();
      if (v !== null) db.prepare(`INSERT INTO meta VALUES ('search_version', ?)`).run(v);
      db.close();
    };
    const expectUnavailable = (why: RegExp) => {
      const { registry, lines } = open(dataDir);
      assert.equal(registry.lookup(SERPRO)?.company.cnpj, SERPRO);
      assert.equal(searchOf(registry.snapshot), null);
      assert.match(lines.join('\n'), why);
      registry.close();
    };
    setVersion(String(SEARCH_SCHEMA_VERSION + 1));
    expectUnavailable(new RegExp(`version ${SEARCH_SCHEMA_VERSION + 1}, this server reads ${SEARCH_SCHEMA_VERSION}`));
    setVersion(null);
    expectUnavailable(/version none/);
    setVersion(String(SEARCH_SCHEMA_VERSION));
    fs.rmSync(path.join(s.dir, 'search-1.db'));
    expectUnavailable(/search index cannot be read/);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
