// A recorded month's counts (per tipo, alteracao per campo: compareSnapshots) summed per tipo.
export function tipoCounts(counts: Record<string, number>): {
  abertura: number;
  encerramento: number;
  alteracao: number;
  total: number;
} {
  let alteracao = 0;
  for (const [k, n] of Object.entries(counts)) if (k !== 'abertura' && k !== 'encerramento') alteracao += n;
  const abertura = counts.abertura ?? 0;
  const encerramento = counts.encerramento ?? 0;
  return { abertura, encerramento, alteracao, total: abertura + encerramento + alteracao };
}
