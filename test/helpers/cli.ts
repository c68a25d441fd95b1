// The real program as a child process, without blocking the test's event loop (so a server in
// the test process, or a client loop, keeps going while the command runs).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * The script that is the program: the bundle `npm test` builds for the full lane (CNPJ_TEST_CLI,
 * scripts/test.ts), else bin/cnpj-api.js, which runs the sources through tsx.
 */
export const CLI = process.env.CNPJ_TEST_CLI || fileURLToPath(new URL('../../bin/cnpj-api.js', import.meta.url));

export interface CliResult {
  code: number | null;
  out: string;
  err: string;
}

/** Runs `cnpj-api args`, from the clone's root unless `cwd` says otherwise. */
export function runCli(args: string[], input = '', cwd?: string): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      stdio: ['pipe', 'pipe', 'pipe'],
      cwd,
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (b) => (out += b));
    child.stderr.on('data', (b) => (err += b));
    child.on('close', (code) => resolve({ code, out, err }));
    child.stdin.end(input);
  });
}
