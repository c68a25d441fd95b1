// Reading Prometheus's text format in tests: the value of one sample, by name and labels.

/** The value of `name{labels}` (labels in any order, all given ones must match; none: the unlabelled one). */
export function sampleValue(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels);
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)/.exec(line);
    if (!m || m[1] !== name) continue;
    const got = new Map([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]));
    if (wanted.length === 0 ? got.size === 0 : wanted.every(([k, v]) => got.get(k) === v)) return Number(m[3]);
  }
  return undefined;
}
