// One CommonJS file holding the whole CLI (a SEA main script is CommonJS and may only require
// built-in modules). esbuild also converts the ESM-only dependencies (yargs 18) to CommonJS.
import fs from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { repoRoot } from './util.ts';

export const ENTRY = path.join(repoRoot, 'src', 'cli', 'binary-entry.ts');

export interface Bundle {
  file: string;
  bytes: number;
  /** A dynamic import() survived bundling (SEA's code cache cannot run those). */
  hasDynamicImport: boolean;
}

/**
 * The CLI as one CommonJS file for Node `nodeMajor`. `external` packages stay `require` calls: the
 * test lanes' bundle (scripts/test.ts) keeps better-sqlite3 out and loads it from node_modules.
 */
export async function bundleCli(outFile: string, nodeMajor: string, external: string[] = []): Promise<Bundle> {
  await esbuild.build({
    entryPoints: [ENTRY],
    outfile: outFile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: `node${nodeMajor}`,
    // ESM code reading import.meta.url (yargs builds a createRequire and a locale path from it):
    // point it at the executable, which is what __filename is in a SEA main script.
    // __cnpjBundleFile tells selfCommand (src/lib/runtime.ts) which script starts another copy.
    define: { 'import.meta.url': '__cnpjImportMetaUrl' },
    banner: {
      js: 'var __cnpjImportMetaUrl = require("node:url").pathToFileURL(__filename).href; var __cnpjBundleFile = __filename;',
    },
    external,
    // yargs' `extends` config support calls import.meta.resolve; the CLI never uses it.
    logOverride: { 'empty-import-meta': 'silent' },
    legalComments: 'eof',
    minifySyntax: true,
    minifyWhitespace: true,
    keepNames: true,
    sourcemap: false,
    logLevel: 'warning',
  });
  const text = fs.readFileSync(outFile, 'utf8');
  return { file: outFile, bytes: Buffer.byteLength(text), hasDynamicImport: /[^\w$.]import\(/.test(text) };
}
