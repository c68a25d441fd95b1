// The real program as a child process, without blocking the test's event loop (so a server in
// the test process, or a client loop, keeps going while the command runs).
import { spawn } from 'node:child_process';
import path from 'node:path';

export interface CliResult {
  code: number | null;
  out: string;
  err: string;
}

/** Runs `cnpj-api args`, from the clone's root unless `cwd` says otherwise. */
export function runCli(args: string[], input = '', cwd?: string): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.resolve('bin/cnpj-api.js'), ...args], {
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
