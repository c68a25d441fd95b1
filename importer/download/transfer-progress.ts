// Download progress: one updating line on a TTY (total and per-file bytes, speed, ETA); on a
// pipe (cron, journald) one line per finished file instead, so logs stay readable.
import type { FetchResult } from './fetch-file.ts';
import type { FetchEvents } from './part-download.ts';

export function fmtBytes(n: number): string {
  if (n >= 1e9) return `${(n / 1e9).toFixed(2)} GB`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)} MB`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)} kB`;
  return `${Math.round(n)} B`;
}

export function fmtDuration(s: number): string {
  if (!Number.isFinite(s) || s < 0) return '?';
  if (s >= 3600) return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
  const m = Math.floor(s / 60);
  return m ? `${m}m${String(Math.floor(s % 60)).padStart(2, '0')}s` : `${Math.floor(s)}s`;
}

interface FileState {
  size?: number;
  done: number;
  phase: 'wait' | 'download' | 'test' | 'done';
}

export class DownloadProgress {
  private readonly files = new Map<string, FileState>();
  private timer: NodeJS.Timeout | null = null;
  private received = 0;
  private samples: { t: number; bytes: number }[] = [];
  private finished = 0;
  readonly tty: boolean;

  constructor(
    names: { name: string; size?: number }[],
    private readonly stream: NodeJS.WriteStream | null,
    private readonly log: (line: string) => void,
  ) {
    for (const f of names) this.files.set(f.name, { size: f.size, done: 0, phase: 'wait' });
    this.tty = !!stream?.isTTY;
  }

  start(): void {
    if (!this.tty) return;
    this.timer = setInterval(() => this.draw(), 250);
    this.timer.unref();
  }

  stop(): void {
    if (!this.timer) return;
    clearInterval(this.timer);
    this.timer = null;
    this.stream!.write('\r\x1b[K');
  }

  /** A message that must not be overwritten by the progress line. */
  note(line: string): void {
    if (this.tty) this.stream!.write('\r\x1b[K');
    this.log(line);
    if (this.timer) this.draw();
  }

  readonly events: FetchEvents = {
    onBytes: (name, delta) => {
      const f = this.files.get(name);
      if (f) f.done = Math.max(0, f.done + delta);
      if (delta > 0) this.received += delta;
    },
    onSize: (name, size, onDisk) => {
      const f = this.files.get(name);
      if (!f) return;
      if (size > 0) f.size = size;
      f.done = onDisk;
    },
    onPhase: (name, phase) => {
      const f = this.files.get(name);
      if (f) f.phase = phase;
    },
    onRetry: (name, reason, delayMs) =>
      this.note(`${name}: ${reason}; ${delayMs > 0 ? `retrying in ${(delayMs / 1000).toFixed(1)} s` : 'retrying'}`),
    onNote: (name, text) => this.note(`${name}: ${text}`),
  };

  fileDone(r: FetchResult): void {
    const f = this.files.get(r.name);
    if (f) Object.assign(f, { phase: 'done', size: r.size, done: r.size });
    this.finished++;
    // Skipped files are only counted in the summary: a rerun would otherwise log 41 lines of nothing.
    if (!this.tty && !r.skipped) {
      this.log(
        `${r.name}: ${fmtBytes(r.size)} in ${r.seconds.toFixed(1)} s${r.retries ? `, ${r.retries} ${r.retries === 1 ? 'retry' : 'retries'}` : ''}, zip test ok`,
      );
    }
  }

  fileFailed(name: string): void {
    const f = this.files.get(name);
    if (f) f.phase = 'done';
    this.finished++;
  }

  private speed(): number {
    const now = performance.now();
    this.samples.push({ t: now, bytes: this.received });
    // A 10 s window: steady enough to read, quick to show a stall.
    while (this.samples.length > 2 && now - this.samples[0].t > 10_000) this.samples.shift();
    const first = this.samples[0];
    const dt = (now - first.t) / 1000;
    return dt > 0.5 ? (this.received - first.bytes) / dt : 0;
  }

  private draw(): void {
    let total = 0;
    let done = 0;
    const active: string[] = [];
    for (const [name, f] of this.files) {
      total += f.size ?? 0;
      done += Math.min(f.done, f.size ?? f.done);
      if (f.phase === 'download')
        active.push(
          f.size
            ? `${name} ${Math.floor((100 * f.done) / f.size)}% of ${fmtBytes(f.size)}`
            : `${name} ${fmtBytes(f.done)}`,
        );
      else if (f.phase === 'test') active.push(`${name} testing`);
    }
    const speed = this.speed();
    const frac = total ? Math.min(1, done / total) : 0;
    const eta = speed > 0 ? (total - done) / speed : NaN;
    const line =
      `[${(frac * 100).toFixed(0).padStart(3)}%] ${fmtBytes(done)} / ${fmtBytes(total)} · ${fmtBytes(speed)}/s · ETA ${fmtDuration(eta)}` +
      ` · ${this.finished}/${this.files.size} files · ${active.join(' · ')}`;
    this.stream!.write(`\r\x1b[K${line.slice(0, (this.stream!.columns || 120) - 1)}`);
  }
}
