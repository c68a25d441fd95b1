// Durations as operators write them on the command line: `500ms`, `2s`, `10m`, `2h`, `1d`.
const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Milliseconds of `text`, or null when it is not a duration. */
export function parseDuration(text: string): number | null {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/.exec(text.trim());
  if (!m) return null;
  const ms = Number(m[1]) * UNITS[m[2]];
  return Number.isFinite(ms) && ms > 0 ? Math.round(ms) : null;
}
