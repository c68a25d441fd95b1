// How this program starts another copy of itself (the importer's writer processes): in a clone,
// node + bin/cnpj-api.js; inside the standalone binary, the binary alone.
import { fileURLToPath } from 'node:url';
import { isSea } from 'node:sea';

export function selfCommand(args: string[]): { command: string; args: string[] } {
  if (isSea()) return { command: process.execPath, args };
  const bin = fileURLToPath(new URL('../../bin/cnpj-api.js', import.meta.url));
  return { command: process.execPath, args: [bin, ...args] };
}
