// One updating progress line on a TTY (stderr): compressed bytes read, rows/s, ETA, current files.
// The search build uses the same line with rows as its unit (importer/search/build.ts).

export interface ProgressState {
  /** The total of `compressedBytes` over the parts: bytes of zips, or rows when `unit` is 'rows'. */
  totalCompressed: number;
  parts: Map<string, { compressedBytes: number; rows: number; current: string }>;
  unit?: 'bytes' | 'rows';
}

function fmtBytes(n: number): string {
  if (n >= 1e9) return `${(n / 1e9).toFixed(2)} GB`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)} MB`;
  return `${(n / 1e3).toFixed(0)} kB`;
}

export function fmtDuration(s: number): string {
  if (!Number.isFinite(s) || s < 0) return '?';
  const m = Math.floor(s / 60);
  return m ? `${m}m${String(Math.round(s % 60)).padStart(2, '0')}s` : `${s.toFixed(0)}s`;
}

export class ProgressLine {
  private timer: NodeJS.Timeout | null = null;
  private readonly started = performance.now();
  constructor(
    private readonly state: ProgressState,
    private readonly stream: NodeJS.WriteStream = process.stderr,
  ) {}

  start(): void {
    if (!this.stream.isTTY) return;
    this.timer = setInterval(() => this.draw(), 250);
    this.timer.unref();
  }

  private draw(): void {
    let bytes = 0;
    let rows = 0;
    const current: string[] = [];
    for (const p of this.state.parts.values()) {
      bytes += p.compressedBytes;
      rows += p.rows;
      if (p.current) current.push(p.current);
    }
    const secs = (performance.now() - this.started) / 1000;
    const frac = this.state.totalCompressed ? Math.min(1, bytes / this.state.totalCompressed) : 0;
    const eta = frac > 0.01 ? (secs / frac) * (1 - frac) : NaN;
    const amount = this.state.unit === 'rows' ? (n: number) => n.toLocaleString('en-US') : fmtBytes;
    const line =
      `[${(frac * 100).toFixed(0).padStart(3)}%] ${amount(bytes)} / ${amount(this.state.totalCompressed)}` +
      ` · ${Math.round(rows / Math.max(secs, 0.001) / 1000)}k rows/s · ${rows.toLocaleString('en-US')} rows` +
      ` · ETA ${fmtDuration(eta)} · ${current.join(', ')}`;
    this.stream.write(`\r\x1b[K${line.slice(0, (this.stream.columns || 120) - 1)}`);
  }

  stop(): void {
    if (!this.timer) return;
    clearInterval(this.timer);
    this.timer = null;
    this.stream.write('\r\x1b[K');
  }
}
