// Shared plumbing of the account-management commands: open the app state, turn domain errors into
// one-sentence CLI errors, read a password from stdin, print aligned tables.
import readline from 'node:readline';
import { AccountsError } from '../../domain/accounts/errors.ts';
import {
  openAppStore,
  openNodeStore,
  redactDatabaseUrl,
  type NodeAppStore,
  type OpenAppStore,
} from '../../storage/app/store.ts';
import { CliError } from '../errors.ts';
import { databaseUrlOf, dataDirOf, type GlobalArgs } from '../options.ts';

/** Runs `fn` on the app state the options name (app.db, or PostgreSQL with --database-url). */
export async function withApp<T>(argv: GlobalArgs, fn: (app: OpenAppStore) => T | Promise<T>): Promise<T> {
  const app = await openStoreOf(argv);
  try {
    return await fn(app);
  } catch (err) {
    if (err instanceof AccountsError) throw new CliError(err.message);
    throw err;
  } finally {
    await app.close();
  }
}

/**
 * The app state the options name, opened; a database that cannot be reached is a CliError. In
 * fleet mode no app.db is opened (nor created in the current folder) unless the command works on
 * this node's registry (`node`).
 */
export function openStoreOf(argv: GlobalArgs): Promise<OpenAppStore>;
export function openStoreOf(argv: GlobalArgs, node: 'node'): Promise<NodeAppStore>;
export async function openStoreOf(argv: GlobalArgs, node?: 'node'): Promise<OpenAppStore> {
  const url = databaseUrlOf(argv);
  try {
    return await (node ? openNodeStore : openAppStore)(dataDirOf(argv), url);
  } catch (err) {
    if (url === undefined) throw err;
    const e = err as Error & { code?: string };
    throw new CliError(`cannot use the database ${redactDatabaseUrl(url)}: ${e.message || e.code}`);
  }
}

/** A positive integer id from a positional argument, or a CliError. */
export function idArg(value: unknown, what = 'ID'): number {
  const n = typeof value === 'number' ? value : Number(String(value ?? '').trim());
  if (!Number.isSafeInteger(n) || n < 1)
    throw new CliError(`${what} must be a positive integer, got "${String(value)}".`);
  return n;
}

/**
 * One line from stdin (the password), without its line ending. On a terminal the typed
 * characters are not echoed; from a pipe the first line is taken.
 */
export function readSecretLine(prompt: string): Promise<string> {
  const tty = Boolean(process.stdin.isTTY);
  const rl = readline.createInterface({
    input: process.stdin,
    output: tty ? process.stderr : undefined,
    terminal: tty,
  });
  if (tty) {
    process.stderr.write(prompt);
    // Mute the echo of what is typed.
    (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput = () => {};
  }
  return new Promise((resolve) => {
    let answered = false;
    rl.once('line', (line) => {
      answered = true;
      rl.close();
      if (tty) process.stderr.write('\n');
      resolve(line.replace(/\r$/, ''));
    });
    rl.once('close', () => {
      if (!answered) resolve('');
    });
  });
}

/** Left-aligned columns with a header row. */
export function printTable(header: string[], rows: (string | number)[][]): void {
  const cells = [header, ...rows.map((r) => r.map(String))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => r[i].length)));
  for (const r of cells) console.log(r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]))).join('  '));
}
