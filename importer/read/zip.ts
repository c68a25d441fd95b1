// Streaming zip reader for the Receita Federal dumps: no unzip to disk, no third-party code.
// Supports stored/deflate members and ZIP64 (Estabelecimentos0 inflates to > 4 GB), and zips stored
// inside a zip (a month's folder downloaded as one zip), read in place.
// Listing in zip-directory.ts, streaming a member in zip-stream.ts, zips inside a zip in
// zip-folder.ts, the shared parts in zip-format.ts.
export { listZip } from './zip-directory.ts';
export { openMemberStream } from './zip-stream.ts';
export { folderDownload, type FolderDownload } from './zip-folder.ts';
export { ZipError, zipLabel, zipName, type ZipInput, type ZipMember, type ZipSlice } from './zip-format.ts';
