// How a snapshot file is written while it is built (the importer's writers and the search
// builders alike): nothing in it needs to survive a crash, because a failed or killed import
// throws the whole build folder away.
import { journalOff, type Sqlite } from '../sqlite.ts';
import { SNAPSHOT_PAGE_SIZE } from './tables.ts';

export function bulkPragmas(db: Sqlite): void {
  db.pragma(`page_size = ${SNAPSHOT_PAGE_SIZE}`); // before the first table: see tables.ts
  journalOff(db);
  db.pragma('synchronous = OFF');
  db.pragma('locking_mode = EXCLUSIVE');
  db.pragma('temp_store = FILE');
  // 16 MB of page cache per process (also the sorter's memory when an index is built): appends
  // need little, the files being read are read through the OS cache either way, and two writers
  // or two search builders plus the parent must stay near 500 MB of RSS.
  db.pragma('cache_size = -16000');
}
