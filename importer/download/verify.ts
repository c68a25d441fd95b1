// The zip integrity test: the server publishes no checksums, so the CRC-32 inside the zip is the
// only end-to-end check. Every member is inflated and checked (size and CRC) by the importer's reader.
import { listZip, openMemberStream } from '../read/zip.ts';

export async function testZip(file: string): Promise<{ members: number; bytes: number }> {
  const members = await listZip(file);
  if (members.length === 0) throw new Error('the zip holds no file');
  let bytes = 0;
  for (const m of members) {
    // Large chunks: this reads gigabytes; the CRC check happens inside the stream.
    for await (const chunk of openMemberStream(file, m, { highWaterMark: 4 << 20 })) bytes += (chunk as Buffer).length;
  }
  return { members: members.length, bytes };
}
