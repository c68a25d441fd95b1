// Calls per day for the month as a server-rendered SVG bar chart (no script, CSP-safe: classes and
// presentation attributes only), described in text and backed by a table for screen readers.
// SVG text scales with the drawing, so one drawing cannot be legible both 320 and 950 px wide:
// the chart is drawn twice, for wide and narrow screens, and the stylesheet shows one of them.
import { CONSULTA_WEB } from '../../domain/accounts/usage.ts';
import { formatInt } from './format.ts';
import { html, type Html } from './html.ts';

export interface DayCount {
  /** 'YYYY-MM-DD' */
  day: string;
  /** Every call of the day: the tokens' and the Consulta page's. */
  calls: number;
  /** Of them, the calls made through the Consulta page (no token). */
  web?: number;
}

interface Geometry {
  name: 'wide' | 'narrow';
  width: number;
  height: number;
  fontSize: number;
}

const GEOMETRIES: readonly Geometry[] = [
  // About 950 px on a desktop card, ~320 px on a 390 px phone: labels come out at 12-14 px.
  { name: 'wide', width: 900, height: 240, fontSize: 12 },
  { name: 'narrow', width: 360, height: 220, fontSize: 13 },
];

/** 1, 2, 5 × 10^n at or above the value, so the axis labels are round numbers. */
function niceMax(v: number): number {
  if (v <= 4) return 4;
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= v) return m * p;
  return 10 * p;
}

const dayMonth = (day: string): string => `${day.slice(8, 10)}/${day.slice(5, 7)}`;

/** One drawing: a slot for every day of the month, bars only for the days that have happened. */
function drawing(
  g: Geometry,
  days: DayCount[],
  monthLength: number,
  today: string,
  max: number,
  monthLabel: string,
  summary: string,
): Html {
  const yLabels = [0, max / 2, max].map((v) => formatInt(v));
  // Room for the longest axis label (digits are about 0.6 em wide).
  const pad = {
    top: 12,
    right: 8,
    bottom: g.fontSize + 14,
    left: Math.ceil(Math.max(...yLabels.map((l) => l.length)) * g.fontSize * 0.62) + 10,
  };
  const plotW = g.width - pad.left - pad.right;
  const plotH = g.height - pad.top - pad.bottom;
  const slot = plotW / Math.max(monthLength, 1);
  const barW = Math.max(2, slot * 0.7);
  const y = (v: number) => pad.top + plotH - (v / max) * plotH;

  const gridLines = [0, max / 2, max].map(
    (
      v,
      i,
    ) => html`<line class="grid-line" x1="${pad.left}" x2="${g.width - pad.right}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}"/>
      <text x="${pad.left - 6}" y="${(y(v) + g.fontSize / 3).toFixed(1)}" text-anchor="end">${yLabels[i]}</text>`,
  );
  const bars = days.map((d) => {
    const i = Number(d.day.slice(8, 10)) - 1;
    const x = pad.left + i * slot + (slot - barW) / 2;
    const h = Math.max(d.calls > 0 ? 1.5 : 0, (d.calls / max) * plotH);
    const label = `${dayMonth(d.day)}: ${formatInt(d.calls)} ${d.calls === 1 ? 'chamada' : 'chamadas'}${d.web ? ` (${formatInt(d.web)} pela ${CONSULTA_WEB})` : ''}`;
    return html`<rect class="bar${d.day === today ? ' today' : ''}" x="${x.toFixed(1)}" y="${(pad.top + plotH - h).toFixed(1)}" width="${barW.toFixed(1)}" height="${h.toFixed(1)}"><title>${label}</title></rect>`;
  });
  const ticks = Array.from({ length: monthLength }, (_, i) => i + 1)
    .filter((n) => n === 1 || n % 5 === 0)
    .map(
      (n) =>
        html`<text x="${(pad.left + (n - 1) * slot + slot / 2).toFixed(1)}" y="${g.height - 8}" text-anchor="middle">${n}</text>`,
    );
  const id = `grafico-${g.name}`;
  return html`<svg class="chart chart-${g.name}" viewBox="0 0 ${g.width} ${g.height}" font-size="${g.fontSize}" role="img" aria-labelledby="${id}-titulo ${id}-desc" focusable="false">
    <title id="${id}-titulo">Chamadas por dia em ${monthLabel}</title>
    <desc id="${id}-desc">${summary}</desc>
    ${gridLines}
    <line class="axis" x1="${pad.left}" x2="${g.width - pad.right}" y1="${pad.top + plotH}" y2="${pad.top + plotH}"/>
    ${bars}
    ${ticks}
  </svg>`;
}

/**
 * `days`: the days of the month so far, in order (zeros included), none still to come;
 * `monthLength`: the days in the month, so the axis spans the whole month; `today` is highlighted.
 */
export function usageChart(days: DayCount[], monthLength: number, today: string, monthLabel: string): Html {
  const total = days.reduce((s, d) => s + d.calls, 0);
  const peak = days.reduce<DayCount | null>((best, d) => (d.calls > (best?.calls ?? 0) ? d : best), null);
  const max = niceMax(peak?.calls ?? 0);
  const web = days.reduce((s, d) => s + (d.web ?? 0), 0);
  const summary =
    total === 0
      ? `Nenhuma chamada em ${monthLabel} até agora.`
      : `${formatInt(total)} ${total === 1 ? 'chamada' : 'chamadas'} em ${monthLabel}${web ? ` (${formatInt(web)} pela ${CONSULTA_WEB})` : ''}; dia com mais chamadas: ${dayMonth(peak!.day)}, com ${formatInt(peak!.calls)}.`;
  // The Consulta page's share gets its own column once the month has any.
  const webCol = web > 0;

  return html`<figure class="chart-figure">
  ${GEOMETRIES.map((g) => drawing(g, days, monthLength, today, max, monthLabel, summary))}
  <figcaption class="muted">${summary}</figcaption>
  <details>
    <summary>Ver as chamadas dia a dia</summary>
    <div class="table-wrap"><table>
      <caption class="sr-only">Chamadas por dia em ${monthLabel}</caption>
      <thead><tr><th scope="col">Dia</th><th scope="col">Chamadas</th>${webCol ? html`<th scope="col">${CONSULTA_WEB}</th>` : ''}</tr></thead>
      <tbody>${days.map((d) => html`<tr><td>${dayMonth(d.day)}</td><td class="num">${formatInt(d.calls)}</td>${webCol ? html`<td class="num">${formatInt(d.web ?? 0)}</td>` : ''}</tr>`)}</tbody>
    </table></div>
  </details>
</figure>`;
}
