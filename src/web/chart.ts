// Calls per day for the month as a server-rendered SVG bar chart (no script, CSP-safe: classes and
// presentation attributes only), described in text and backed by a table for screen readers.
import { formatInt } from './format.ts';
import { html, type Html } from './html.ts';

export interface DayCount {
  /** 'YYYY-MM-DD' */
  day: string;
  calls: number;
}

const W = 720;
const H = 200;
const PAD = { top: 12, right: 8, bottom: 26, left: 48 };

/** 1, 2, 5 × 10^n at or above the value, so the axis labels are round numbers. */
function niceMax(v: number): number {
  if (v <= 4) return 4;
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= v) return m * p;
  return 10 * p;
}

const dayMonth = (day: string): string => `${day.slice(8, 10)}/${day.slice(5, 7)}`;

/** `days`: every day of the month in order (zeros included); `today` is highlighted. */
export function usageChart(days: DayCount[], today: string, monthLabel: string): Html {
  const total = days.reduce((s, d) => s + d.calls, 0);
  const peak = days.reduce<DayCount | null>((best, d) => (d.calls > (best?.calls ?? 0) ? d : best), null);
  const max = niceMax(peak?.calls ?? 0);
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const slot = plotW / Math.max(days.length, 1);
  const barW = Math.max(2, slot * 0.7);
  const y = (v: number) => PAD.top + plotH - (v / max) * plotH;

  const gridLines = [0, max / 2, max].map(
    (v) => html`<line class="grid-line" x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}"/>
      <text x="${PAD.left - 6}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end">${formatInt(v)}</text>`,
  );
  const bars = days.map((d, i) => {
    const x = PAD.left + i * slot + (slot - barW) / 2;
    const h = Math.max(d.calls > 0 ? 1.5 : 0, (d.calls / max) * plotH);
    const label = `${dayMonth(d.day)}: ${formatInt(d.calls)} ${d.calls === 1 ? 'chamada' : 'chamadas'}`;
    return html`<rect class="bar${d.day === today ? ' today' : ''}" x="${x.toFixed(1)}" y="${(PAD.top + plotH - h).toFixed(1)}" width="${barW.toFixed(1)}" height="${h.toFixed(1)}"><title>${label}</title></rect>`;
  });
  const ticks = days
    .map((d, i) => ({ d, i }))
    .filter(({ i }) => i === 0 || (i + 1) % 5 === 0)
    .map(({ d, i }) => html`<text x="${(PAD.left + i * slot + slot / 2).toFixed(1)}" y="${H - 8}" text-anchor="middle">${Number(d.day.slice(8, 10))}</text>`);

  const summary =
    total === 0
      ? `Nenhuma chamada em ${monthLabel} até agora.`
      : `${formatInt(total)} ${total === 1 ? 'chamada' : 'chamadas'} em ${monthLabel}; dia com mais chamadas: ${dayMonth(peak!.day)}, com ${formatInt(peak!.calls)}.`;

  return html`<figure class="chart-figure">
  <svg class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="grafico-titulo grafico-desc" focusable="false">
    <title id="grafico-titulo">Chamadas por dia em ${monthLabel}</title>
    <desc id="grafico-desc">${summary}</desc>
    ${gridLines}
    <line class="axis" x1="${PAD.left}" x2="${W - PAD.right}" y1="${PAD.top + plotH}" y2="${PAD.top + plotH}"/>
    ${bars}
    ${ticks}
  </svg>
  <figcaption class="muted">${summary}</figcaption>
  <details>
    <summary>Ver as chamadas dia a dia</summary>
    <div class="table-wrap"><table>
      <caption class="sr-only">Chamadas por dia em ${monthLabel}</caption>
      <thead><tr><th scope="col">Dia</th><th scope="col">Chamadas</th></tr></thead>
      <tbody>${days.map((d) => html`<tr><td>${dayMonth(d.day)}</td><td class="num">${formatInt(d.calls)}</td></tr>`)}</tbody>
    </table></div>
  </details>
</figure>`;
}
