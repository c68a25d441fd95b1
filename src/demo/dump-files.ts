// The files a synthetic dump is written into: a zip holding one CSV member written row by row,
// and the four tax-regime zips (Lucro Presumido holds one CSV per year, gathered in temporary
// files first).

import { closeSync, mkdirSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { RegimeRow } from './tax.ts';
import { ZipWriter } from './zip-writer.ts';

/** A zip holding one CSV member, written line by line. */
export class CsvZip {
  readonly zip: ZipWriter;
  records = 0;
  constructor(
    readonly file: string,
    dir: string,
    member: string,
    mtime: Date,
  ) {
    this.zip = new ZipWriter(join(dir, file), { level: 1, mtime });
    this.zip.beginEntry(member);
  }
  row(fields: readonly string[]): void {
    this.zip.write(`"${fields.join('";"')}"\n`);
  }
  raw(text: string): void {
    this.zip.write(text);
  }
  close(): number {
    this.zip.endEntry();
    this.zip.close();
    return this.zip.bytesWritten;
  }
}

/** A plain buffered text file (the per-year Lucro Presumido parts before zipping). */
class TextFile {
  private fd: number;
  private buf = '';
  constructor(readonly path: string) {
    this.fd = openSync(path, 'w');
  }
  write(s: string): void {
    this.buf += s;
    if (this.buf.length > 256 * 1024) this.flush();
  }
  private flush(): void {
    if (this.buf) writeSync(this.fd, Buffer.from(this.buf, 'latin1'));
    this.buf = '';
  }
  close(): void {
    this.flush();
    closeSync(this.fd);
  }
}

const REGIME_HEADER = 'ano,cnpj,cnpj_da_scp,forma_de_tributacao,quantidade_de_escrituracoes';

interface RegimeZip {
  file: string;
  zw: ZipWriter;
  eol: string;
}

/** The regime zips: one CSV per zip, except Lucro Presumido (one per year, in a subfolder). */
export class RegimeFiles {
  rows = 0;
  private readonly lucroReal: RegimeZip;
  private readonly lucroArbitrado: RegimeZip;
  private readonly imunes: RegimeZip;
  private readonly tmpDir: string;
  private readonly presumido = new Map<number, TextFile>();

  constructor(
    private readonly out: string,
    private readonly mtime: Date,
  ) {
    this.lucroReal = this.open('Lucro Real.zip', 'Lucro Real.csv', '\n');
    this.lucroArbitrado = this.open('Lucro Arbitrado.zip', 'Lucro Arbitrado.csv', '\r\n');
    this.imunes = this.open('Imunes e Isentas.zip', 'Imunes e Isentas.csv', '\n');
    this.tmpDir = join(out, `.tmp-presumido-${process.pid}`);
    mkdirSync(this.tmpDir, { recursive: true });
  }

  private open(file: string, memberName: string, eol: string): RegimeZip {
    const zw = new ZipWriter(join(this.out, file), { level: 1, mtime: this.mtime });
    zw.beginEntry(memberName);
    zw.write(REGIME_HEADER + eol);
    return { file, zw, eol };
  }

  write([ano, cnpj, scp, forma, n]: RegimeRow): void {
    const line = `${ano},${cnpj},${scp},${forma},${n}`;
    this.rows++;
    if (forma === 'LUCRO PRESUMIDO') {
      let t = this.presumido.get(ano);
      if (!t) {
        t = new TextFile(join(this.tmpDir, `${ano}.csv`));
        t.write(REGIME_HEADER + '\r\n');
        this.presumido.set(ano, t);
      }
      t.write(line + '\r\n');
      return;
    }
    const target =
      forma === 'LUCRO REAL' ? this.lucroReal : forma === 'LUCRO ARBITRADO' ? this.lucroArbitrado : this.imunes;
    target.zw.write(line + target.eol);
  }

  /** Finishes the four zips; their names and sizes. */
  close(): Array<[string, number]> {
    const sizes: Array<[string, number]> = [];
    for (const r of [this.lucroReal, this.lucroArbitrado, this.imunes]) {
      r.zw.endEntry();
      r.zw.close();
      sizes.push([r.file, r.zw.bytesWritten]);
    }
    const pz = new ZipWriter(join(this.out, 'Lucro Presumido.zip'), { level: 1, mtime: this.mtime });
    for (const ano of [...this.presumido.keys()].sort((a, b) => a - b)) {
      const t = this.presumido.get(ano)!;
      t.close();
      pz.addFile(`Lucro Presumido/Lucro Presumido ${ano}.csv`, t.path);
    }
    pz.close();
    sizes.push(['Lucro Presumido.zip', pz.bytesWritten]);
    rmSync(this.tmpDir, { recursive: true, force: true });
    return sizes;
  }
}
