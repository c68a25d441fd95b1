// The real program as a child process, without blocking the test's event loop (so a server in
// the test process, or a client loop, keeps going while the command runs).
import { spawn } from 'node:child_process';

export interface CliResult {
  code: number | null;
  out: string;
  err: string;
}

export function runCli(args: string[], input = ''): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['bin/cnpj-api.js', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (b) => (out += b));
    child.stderr.on('data', (b) => (err += b));
    child.on('close', (code) => resolve({ code, out, err }));
    child.stdin.end(input);
  });
}
