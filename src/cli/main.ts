// Entry point of the `cnpj-api` program (the npx shim and the standalone binary both land here).
import yargs from 'yargs';
import { VERSION } from '../lib/version.ts';
import { CliError } from './errors.ts';
import { withGlobalOptions } from './options.ts';

export async function main(argv: string[]): Promise<void> {
  // Internal: a snapshot writer started by `import` (not a user command, so not in --help).
  if (argv[0] === '__import-writer') {
    const { runWriterProcess } = await import('../../importer/writer-process.ts');
    return runWriterProcess();
  }
  // Internal: a search index builder started by `import` after the writers.
  if (argv[0] === '__import-search') {
    const { runSearchProcess } = await import('../../importer/search/process.ts');
    return runSearchProcess();
  }
  // Internal: the comparison with the month before, started by `import` beside the search build.
  if (argv[0] === '__import-history') {
    const { runHistoryProcess } = await import('../../importer/history/process.ts');
    return runHistoryProcess();
  }
  const verbose = argv.includes('--verbose');
  quietOnClosedOutput();
  try {
    // Loaded here, not at the top: the writer processes above need none of the commands.
    const { commands } = await import('./commands/index.ts');
    let cli = withGlobalOptions(yargs(argv))
      .scriptName('cnpj-api')
      .usage('$0 <command> [options]')
      // Operator text is English whatever the machine's locale (yargs would follow LANG=pt_BR).
      .locale('en')
      .demandCommand(1, 'Give a command; see --help.')
      .strict()
      .recommendCommands()
      .help()
      .alias('h', 'help')
      .version('version', 'show the version', VERSION)
      .wrap(Math.min(110, process.stdout.columns || 100))
      .fail((msg, err) => {
        throw err ?? new CliError(msg);
      });
    for (const c of commands) cli = cli.command(c);
    await cli.parseAsync();
  } catch (err) {
    // One sentence on stderr; the stack only when asked for.
    const e = err as Error;
    console.error(verbose ? (e.stack ?? String(e)) : `error: ${e.message}`);
    process.exitCode = e instanceof CliError ? e.exitCode : 1;
  }
}

/**
 * `cnpj-api status | head -1`: the reader is gone, there is nothing left to say, so the program
 * stops quietly instead of dying on an unhandled EPIPE with a stack trace.
 */
function quietOnClosedOutput(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE') throw err;
      process.exit(process.exitCode ?? 0);
    });
  }
}
