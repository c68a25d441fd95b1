// Streaming zip reader for the Receita Federal dumps: no unzip to disk, no third-party code.
// Supports stored/deflate members and ZIP64 (Estabelecimentos0 inflates to > 4 GB).
// Listing in zip-directory.ts, streaming a member in zip-stream.ts, the shared parts in zip-format.ts.
export { listZip } from './zip-directory.ts';
export { openMemberStream } from './zip-stream.ts';
export { ZipError, type ZipMember } from './zip-format.ts';
