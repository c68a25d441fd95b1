// The one stylesheet, kept as a string module so the standalone binary carries it.
import crypto from 'node:crypto';

export const STYLE_CSS = `
:root {
  --bg: #f4f6f8; --card: #ffffff; --text: #1b2430; --muted: #4f5b69; --line: #d8dee5;
  --brand: #0b5d43; --brand-dark: #07432f; --brand-soft: #e3f2ec;
  --danger: #a4161a; --danger-soft: #fde8e8; --warn: #7a4b00; --warn-soft: #fff4d6;
  --info-soft: #e8f0fb; --focus: #1a5fd0; --radius: 10px;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", Ubuntu, sans-serif;
  color: var(--text); background: var(--bg); line-height: 1.5;
}
* { box-sizing: border-box; }
body { margin: 0; min-height: 100vh; display: flex; flex-direction: column; }
a { color: var(--brand); }
a:hover { color: var(--brand-dark); }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.skip { position: absolute; left: -9999px; top: 0; background: #fff; padding: .5rem 1rem; z-index: 10; }
.skip:focus { left: 1rem; top: .5rem; }
.sr-only { position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
.container { width: 100%; max-width: 1040px; margin: 0 auto; padding: 0 1.25rem; }
main.container { flex: 1; padding-top: 2rem; padding-bottom: 2rem; }
main:focus { outline: none; }
.topbar { background: #10231c; color: #fff; }
.topbar-inner { max-width: 1040px; margin: 0 auto; padding: .75rem 1.25rem; display: flex; align-items: center; gap: 1.5rem; flex-wrap: wrap; }
.brand { color: #fff; text-decoration: none; font-weight: 700; font-size: 1.1rem; display: inline-flex; align-items: center; gap: .5rem; }
.brand:hover { color: #fff; }
.brand-mark { display: inline-grid; place-items: center; width: 1.8rem; height: 1.8rem; border-radius: 6px; background: #2fa37a; color: #08150f; font-weight: 800; }
.nav { display: flex; flex-wrap: wrap; gap: .25rem; flex: 1; }
.nav a { white-space: nowrap; color: #d7e6df; text-decoration: none; padding: .4rem .75rem; border-radius: 6px; }
.nav a:hover { background: rgba(255,255,255,.08); color: #fff; }
.nav a[aria-current="page"] { background: rgba(255,255,255,.14); color: #fff; font-weight: 600; }
.who { display: flex; align-items: center; gap: .75rem; }
.who-text { display: flex; flex-direction: column; text-align: right; font-size: .85rem; line-height: 1.25; }
.who-meta { color: #b8cbc2; }
.footer { color: var(--muted); font-size: .85rem; padding-top: 1rem; padding-bottom: 1.5rem; }
h1 { font-size: 1.75rem; margin: 0 0 .25rem; }
h2 { font-size: 1.2rem; margin: 0 0 .75rem; }
.lead { color: var(--muted); margin: 0 0 1.5rem; }
.page-head { margin-bottom: 1.5rem; display: flex; justify-content: space-between; align-items: flex-start; gap: 1rem 2rem; flex-wrap: wrap; }
.page-head > div { flex: 1 1 420px; }
.page-head .btn { margin-top: .35rem; }
.page-head .lead { margin-bottom: 0; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: var(--radius); padding: 1.25rem 1.5rem; margin-bottom: 1.25rem; }
.grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(260px, 1fr)); gap: 1.25rem; margin-bottom: 1.25rem; }
.grid .card { margin-bottom: 0; }
.stat-label { color: var(--muted); font-size: .9rem; margin: 0; }
.stat { font-size: 1.6rem; font-weight: 700; margin: .15rem 0 .5rem; }
.stat small { font-size: 1rem; font-weight: 400; color: var(--muted); }
.meter { display: block; width: 100%; height: 12px; border-radius: 6px; overflow: hidden; }
.meter .track { fill: #e4e9ee; }
.meter .fill { fill: var(--brand); }
.meter .fill.high { fill: #b7791f; }
.meter .fill.full { fill: var(--danger); }
.chart-figure { margin: 0; }
.chart { width: 100%; height: auto; display: block; }
.chart .bar { fill: #2f8f6b; }
.chart .bar.today { fill: var(--brand-dark); }
.chart .axis { stroke: #9aa6b2; stroke-width: 1; }
.chart .grid-line { stroke: #e4e9ee; stroke-width: 1; }
.chart text { fill: var(--muted); font-family: inherit; }
.chart-narrow { display: none; }
details summary { cursor: pointer; color: var(--brand); margin-top: .5rem; }
.btn { display: inline-flex; align-items: center; justify-content: center; gap: .4rem; font: inherit; font-weight: 600; border-radius: 8px; border: 1px solid transparent; padding: .55rem 1.1rem; cursor: pointer; text-decoration: none; line-height: 1.2; }
.btn-primary { background: var(--brand); color: #fff; }
.btn-primary:hover { background: var(--brand-dark); color: #fff; }
.btn-secondary { background: #fff; color: var(--brand-dark); border-color: #9fbfb2; }
.btn-secondary:hover { background: var(--brand-soft); }
.btn-danger { background: #fff; color: var(--danger); border-color: #e3a3a5; }
.btn-danger:hover { background: var(--danger-soft); }
.btn-ghost { background: transparent; color: #fff; border-color: rgba(255,255,255,.35); padding: .35rem .8rem; }
.btn-ghost:hover { background: rgba(255,255,255,.1); }
.btn-small { padding: .3rem .7rem; font-size: .9rem; }
.btn-large { padding: .75rem 1.4rem; font-size: 1.05rem; }
form.inline { display: inline; margin: 0; }
.field { margin-bottom: 1rem; }
.field label { display: block; font-weight: 600; margin-bottom: .3rem; }
.field .hint { display: block; color: var(--muted); font-size: .85rem; margin-top: .25rem; }
.field { position: relative; }
.suggestions { position: absolute; z-index: 10; left: 0; right: 0; margin: .1rem 0 0; padding: 0; list-style: none; background: #fff; border: 1px solid var(--muted); border-radius: 4px; max-height: 20rem; overflow-y: auto; }
.suggestions li { padding: .35rem .5rem; }
.suggestions li[aria-selected=true] { background: #e8eef7; }
input[type=text], input[type=url], input[type=email], input[type=password], input[type=date], select {
  font: inherit; width: 100%; padding: .55rem .7rem; border: 1px solid #8f9baa; border-radius: 8px; background: #fff; color: var(--text);
}
.form-row { display: grid; grid-template-columns: 2fr 1fr 1fr; gap: 1rem; align-items: start; }
.form-row .field { margin-bottom: 0; }
.alert { border-radius: 8px; padding: .85rem 1rem; margin-bottom: 1.25rem; border: 1px solid; }
.alert p { margin: .25rem 0; }
.alert-error { background: var(--danger-soft); border-color: #f0b4b6; color: #6e0e11; }
.alert-warn { background: var(--warn-soft); border-color: #f0d58a; color: #4d3000; }
.alert-info { background: var(--info-soft); border-color: #b9cff0; color: #173b6b; }
.alert-success { background: var(--brand-soft); border-color: #9fd1bc; color: #063a29; }
.secret { display: flex; gap: .5rem; align-items: stretch; margin: .5rem 0; flex-wrap: wrap; }
.secret code, pre.code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .92rem; }
.secret code { flex: 1; min-width: 0; background: #fff; border: 1px solid #9fd1bc; border-radius: 8px; padding: .55rem .75rem; word-break: break-all; user-select: all; }
pre.code { background: #0f1d17; color: #e6f2ec; border-radius: 8px; padding: .85rem 1rem; overflow-x: auto; white-space: pre-wrap; overflow-wrap: anywhere; margin: .5rem 0; user-select: all; }
/* JSON keeps its indentation: it scrolls sideways inside its block rather than wrap. */
pre.code.json { white-space: pre; user-select: text; font-size: .85rem; }
.copy-status { font-size: .9rem; color: var(--brand-dark); margin: 0; }
.copy-status:empty { display: none; }
table { width: 100%; border-collapse: collapse; }
th, td { text-align: left; padding: .6rem .5rem; border-bottom: 1px solid var(--line); vertical-align: middle; }
thead th { font-size: .85rem; color: var(--muted); font-weight: 600; text-transform: uppercase; letter-spacing: .02em; }
tbody th { font-weight: 600; }
td.num { font-variant-numeric: tabular-nums; }
.table-wrap { overflow-x: auto; container-type: inline-size; }
code.prefix { background: #eef1f4; padding: .1rem .35rem; border-radius: 4px; }
.badge { display: inline-block; padding: .15rem .6rem; border-radius: 999px; font-size: .85rem; font-weight: 600; border: 1px solid; }
.badge-ativo { background: var(--brand-soft); color: #063a29; border-color: #9fd1bc; }
.badge-desativado { background: #eef1f4; color: #36404c; border-color: #c4ccd5; }
.badge-expirado { background: var(--warn-soft); color: #4d3000; border-color: #f0d58a; }
.badge-invalidado { background: var(--danger-soft); color: #6e0e11; border-color: #f0b4b6; }
.muted { color: var(--muted); }
.actions { display: flex; gap: .75rem; flex-wrap: wrap; align-items: center; margin-top: 1rem; }
.login-card { max-width: 420px; margin: 2rem auto; }
.login-card .btn { width: 100%; }
.kv { display: grid; grid-template-columns: max-content 1fr; gap: .35rem 1rem; margin: 0; }
.kv dt { color: var(--muted); }
.kv dd { margin: 0; font-weight: 600; min-width: 0; overflow-wrap: anywhere; }
/* The Consulta record: long field names and values; on a phone each value goes under its name. */
@media (max-width: 600px) { .kv.record { grid-template-columns: minmax(0, 1fr); gap: 0; } .kv.record dd { margin-bottom: .5rem; overflow-wrap: break-word; } }
code { overflow-wrap: anywhere; }
/* A change's values (an e-mail, a street) break anywhere rather than widen the table. */
.mudanca > span { min-width: 0; overflow-wrap: anywhere; }
th.cnpj { white-space: nowrap; }
.error-page { max-width: 560px; margin: 2rem auto; text-align: center; }
body.wide .container, body.wide .topbar-inner { max-width: 1240px; }
.docs { display: grid; grid-template-columns: 210px minmax(0, 1fr); gap: 1.5rem; align-items: start; }
.toc { position: sticky; top: 1rem; max-height: calc(100vh - 2rem); overflow-y: auto; padding: 1rem 1.25rem; margin: 0; }
.toc h2 { font-size: 1rem; margin-bottom: .5rem; }
.toc ol { margin: 0; padding-left: 1.1rem; }
.toc ol ol { padding-left: 1rem; font-size: .92rem; }
.toc li { margin: .2rem 0; }
.docs-body h2, .docs-body h3 { scroll-margin-top: 1rem; }
.docs-body h3 { margin: 1.5rem 0 .5rem; font-size: 1.05rem; }
.docs-table { font-size: .92rem; }
.docs-table td { vertical-align: top; }
.docs-table code { overflow-wrap: normal; }
@media (max-width: 760px) {
  .form-row { grid-template-columns: 1fr; }
  .docs { grid-template-columns: minmax(0, 1fr); }
  .toc { position: static; max-height: none; }
  .who-text { display: none; }
  .topbar-inner { gap: .75rem; }
  .nav { order: 3; flex-basis: 100%; flex-wrap: wrap; }
  .who { margin-left: auto; }
}
/* Phones: tighter cards and the small chart. */
@media (max-width: 640px) {
  main.container { padding-top: 1.25rem; }
  .container { padding-left: 1rem; padding-right: 1rem; }
  .card { padding: 1rem; }
  h1 { font-size: 1.5rem; }
  .chart-wide { display: none; }
  .chart-narrow { display: block; }
}
/* A stack table narrower than its columns need (a phone, a tablet, a narrow docs column) becomes
   a list of cards, each cell led by its column's name (data-label): no column ends up off screen. */
@container (max-width: 720px) {
  table.stack thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
  table.stack, table.stack tbody, table.stack tr { display: block; }
  table.stack tr { border: 1px solid var(--line); border-radius: 8px; padding: .5rem .85rem; margin-bottom: .75rem; }
  table.stack tbody th { display: block; border: 0; padding: .35rem 0; font-size: 1.05rem; }
  table.stack td { display: grid; grid-template-columns: 7rem minmax(0, 1fr); gap: .75rem; align-items: center; justify-items: start; border: 0; padding: .3rem 0; }
  table.stack td::before { content: attr(data-label); color: var(--muted); font-size: .85rem; font-weight: 600; }
  /* Reference rows read as: the name, then "Tipo: …", "Descrição: …" at full width. */
  table.stack.docs-table td { display: block; padding: .15rem 0; }
  table.stack.docs-table td::before { content: attr(data-label) ": "; font-size: .8rem; }
  table.stack.docs-table td:first-child { font-weight: 600; }
  table.stack.docs-table td:first-child::before { content: none; }
  .docs-table code { overflow-wrap: anywhere; }
}
`;

/** Content-hashed path: the file can be cached for a year and still change with a release. */
export const STYLE_PATH = `/static/style-${crypto.createHash('sha256').update(STYLE_CSS).digest('hex').slice(0, 10)}.css`;
