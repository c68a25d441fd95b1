// How this program starts another copy of itself (the importer's writer processes, the pull
// child): in a clone, node + bin/cnpj-api.js; from a CommonJS bundle of the CLI (the test lanes
// run one, scripts/test.ts), node + that bundle; inside the standalone binary, the binary alone.
import { fileURLToPath } from 'node:url';
import { isSea } from 'node:sea';

/** Defined by the bundle's first line (scripts/binary/bundle.ts); undeclared when run from source. */
declare const __cnpjBundleFile: string | undefined;

export function selfCommand(args: string[]): { command: string; args: string[] } {
  if (isSea()) return { command: process.execPath, args };
  if (typeof __cnpjBundleFile === 'string') return { command: process.execPath, args: [__cnpjBundleFile, ...args] };
  const bin = fileURLToPath(new URL('../../bin/cnpj-api.js', import.meta.url));
  return { command: process.execPath, args: [bin, ...args] };
}
