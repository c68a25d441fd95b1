// The loop both FTS steps of a search part share: an INSERT … SELECT over a rowid range of a
// source table, run chunk by chunk so progress is reported and the event loop breathes.
import type { Sqlite } from '../../src/storage/sqlite.ts';

/**
 * Runs `insertSql` (parameters: first rowid, end rowid exclusive) over the rows of `table` whose
 * rowid is in `range(max rowid)`, `chunk` rows at a time (then `afterChunk`, with the connection
 * free again); returns how many rows it inserted.
 */
export async function insertByRowidChunks(
  db: Sqlite,
  insertSql: string,
  table: string,
  chunk: number,
  range: (maxRowid: number) => [number, number],
  onProgress: (done: number) => void,
  afterChunk?: () => void,
): Promise<number> {
  const insert = db.prepare(insertSql);
  const maxRowid = (db.prepare(`SELECT max(rowid) AS m FROM ${table}`).get() as { m: number | null }).m ?? 0;
  const [first, last] = range(maxRowid);
  let done = 0;
  for (let from = first; from < last; from += chunk) {
    done += insert.run(from, Math.min(from + chunk, last)).changes;
    afterChunk?.();
    onProgress(done);
    // Let the progress message out: the build is otherwise synchronous.
    await new Promise(setImmediate);
  }
  return done;
}
