// Figures the benchmarks print.

/** The `p` quantile (0–1) of `xs`, nearest rank; NaN for none. */
export const quantile = (xs: readonly number[], p: number): number =>
  xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))] : NaN;
