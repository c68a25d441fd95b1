// Read-layer benchmark: inflate only, parser only, inflate+parse, csv-parse reference.
// Usage: node --import tsx scripts/bench-parse.ts [rows=1000000] [reps=3]
// Reports wall-clock and CPU-time rates (the machine is shared: CPU time is the steadier number).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { listZip, openMemberStream } from '../importer/read/zip.ts';
import { RecordParser } from '../importer/read/records.ts';
import { CsvReferenceParser } from '../importer/read/csv-reference.ts';
import { generateEstabelecimentos } from '../test/helpers/gen-records.ts';
import { writeZip } from '../test/helpers/zip-writer.ts';

const rows = Number(process.argv[2] ?? 1_000_000);
const reps = Number(process.argv[3] ?? 3);
const CHUNK = 1 << 20;

interface Sample {
  wall: number;
  cpu: number;
}
async function measure(name: string, bytes: number, fn: () => Promise<number> | number, times = reps): Promise<void> {
  const samples: (Sample & { rows: number })[] = [];
  for (let i = 0; i < times; i++) {
    const t = performance.now();
    const c = process.cpuUsage();
    const n = await fn();
    const cu = process.cpuUsage(c);
    samples.push({ wall: (performance.now() - t) / 1000, cpu: (cu.user + cu.system) / 1e6, rows: n });
  }
  const best = samples.reduce((a, b) => (b.wall < a.wall ? b : a));
  const mb = bytes / 1e6;
  const r = best.rows
    ? `  ${(best.rows / best.wall / 1000).toFixed(0)} k rows/s wall, ${(best.rows / best.cpu / 1000).toFixed(0)} k rows/s cpu`
    : '';
  console.log(
    `${name.padEnd(24)} ${(mb / best.wall).toFixed(0).padStart(5)} MB/s wall, ${(mb / best.cpu).toFixed(0).padStart(5)} MB/s cpu${r}`,
  );
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-parse-'));
try {
  console.log(`generating ${rows} Estabelecimentos-like rows...`);
  const data = generateEstabelecimentos(rows, 42);
  const zipFile = path.join(tmp, 'Estabelecimentos0.zip');
  writeZip(zipFile, [{ name: 'K3241.K03200Y0.D51213.ESTABELE', data, dataDescriptor: true, level: 6 }]);
  const [member] = await listZip(zipFile);
  console.log(
    `${(data.length / 1e6).toFixed(0)} MB uncompressed, ${(member.compressedSize / 1e6).toFixed(0)} MB deflated, ${(data.length / rows).toFixed(0)} B/row; ${os.cpus().length} cpus, load ${os.loadavg()[0].toFixed(1)}`,
  );

  const parse = (feed: (p: RecordParser) => void | Promise<void>) => async () => {
    let rejected = 0;
    const p = new RecordParser({ expectedFields: 30, onRecord: () => {}, onReject: () => rejected++ });
    await feed(p);
    p.end();
    if (rejected || p.records !== rows) throw new Error(`parser mismatch: ${p.records} records, ${rejected} rejected`);
    return p.records;
  };

  await measure('inflate (zip stream)', data.length, async () => {
    for await (const _ of openMemberStream(zipFile, member)) void _;
    return 0;
  });
  await measure(
    'parser only',
    data.length,
    parse((p) => {
      for (let o = 0; o < data.length; o += CHUNK) p.push(data.subarray(o, o + CHUNK));
    }),
  );
  await measure(
    'inflate + parse',
    data.length,
    parse(async (p) => {
      for await (const c of openMemberStream(zipFile, member)) p.push(c as Buffer);
    }),
  );
  const small = data.subarray(0, data.indexOf(10, Math.min(data.length - 1, 20 << 20)) + 1);
  const smallRows = small.toString('latin1').split('\n').length - 1;
  await measure(
    'csv-parse reference',
    small.length,
    () => {
      const p = new CsvReferenceParser({ expectedFields: 30, onRecord: () => {}, onReject: () => {} });
      for (let o = 0; o < small.length; o += CHUNK) p.push(small.subarray(o, o + CHUNK));
      p.end();
      return smallRows;
    },
    1,
  );
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
