// A used/limit bar as a server-rendered SVG (no script, CSP-safe): the month's calls against the
// quota, the watchlist against the plan's limit. `high` from 80 %, `full` at the limit.
import { html, type Html } from './html.ts';

export function meter(used: number, limit: number): Html {
  const ratio = limit > 0 ? Math.min(1, used / limit) : 1;
  const level = ratio >= 1 ? ' full' : ratio >= 0.8 ? ' high' : '';
  return html`<svg class="meter" viewBox="0 0 100 4" preserveAspectRatio="none" aria-hidden="true" focusable="false">
    <rect class="track" x="0" y="0" width="100" height="4"/>
    <rect class="fill${level}" x="0" y="0" width="${(ratio * 100).toFixed(2)}" height="4"/>
  </svg>`;
}
