// The "API de CNPJ" area: plan, this month's calls against the quota, calls per day, how to call
// (natively and through the compat routes).
import type { MonthUsage } from '../../../domain/accounts/usage.ts';
import { ERRORS } from '../../../domain/api-errors.ts';
import { usageChart, type DayCount } from '../chart.ts';
import { formatDate, formatInt, formatPct } from '../format.ts';
import { breakAfterSlashes, html, type Html } from '../html.ts';
import { layout, type HeaderUser } from '../layout.ts';
import { meter } from '../meter.ts';
import { COMPAT_SERVICES } from '../../../domain/compat/services.ts';
import { EXAMPLE_CNPJ } from '../../../domain/cnpj.ts';

/** The CNPJ used in the example (Receita's own published example). */

export interface HomePageData {
  viewer: HeaderUser;
  accountSuspended: boolean;
  usage: MonthUsage;
  monthLabel: string;
  /** The days of the month so far. */
  days: DayCount[];
  monthLength: number;
  today: string;
  baseUrl: string;
}

/** What the API answers this account's calls, in the words of the API's error table. */
function apiAnswer(key: 'account_suspended' | 'plan_without_api', message: string = ERRORS[key].message): Html {
  const def = ERRORS[key];
  return html`A API responde <code>${def.status} ${def.error}</code>: “${message}”`;
}

export function curlExample(baseUrl: string): string {
  return `curl -H "Authorization: Bearer SEU_TOKEN" ${baseUrl.replace(/\/+$/, '')}/api/v1/brazilian_companies/${EXAMPLE_CNPJ}/company`;
}

export function homePage(d: HomePageData): string {
  const { usage } = d;
  const pct = usage.limit > 0 ? (usage.calls / usage.limit) * 100 : 100;
  const resetDay = formatDate(usage.reset * 1000);
  const base = d.baseUrl.replace(/\/+$/, '');
  const body = html`<div class="page-head">
  <div>
    <h1>API de CNPJ</h1>
    <p class="lead">Consulte os dados cadastrais de empresas brasileiras pelo CNPJ. As chamadas estão incluídas no seu plano até a cota mensal.</p>
  </div>
  <a class="btn btn-primary btn-large" href="/api-de-cnpj/tokens">Gerenciar Tokens da API</a>
</div>
${d.accountSuspended ? html`<div class="alert alert-error" role="alert"><p><strong>Conta suspensa.</strong> ${apiAnswer('account_suspended')}</p></div>` : ''}
${!usage.apiIncluded ? html`<div class="alert alert-warn" role="status"><p>${apiAnswer('plan_without_api', ERRORS.plan_without_api.specific({ plan: usage.plan }))} Fale com o suporte para mudar de plano.</p></div>` : ''}
<div class="grid">
  <section class="card" aria-labelledby="plano-titulo">
    <h2 id="plano-titulo">Plano</h2>
    <p class="stat">${usage.plan}</p>
    <dl class="kv">
      <dt>Cota mensal</dt><dd>${formatInt(usage.limit)} chamadas</dd>
      <dt>Acesso à API</dt><dd>${usage.apiIncluded ? 'incluído' : 'não incluído'}</dd>
      <dt>Conta</dt><dd>${d.viewer.accountName} · ${d.accountSuspended ? 'suspensa' : 'ativa'}</dd>
    </dl>
  </section>
  <section class="card" aria-labelledby="uso-titulo">
    <h2 id="uso-titulo">Uso em ${d.monthLabel}</h2>
    <p class="stat" id="uso-mes">${formatInt(usage.calls)} <small>de ${formatInt(usage.limit)} chamadas</small></p>
    ${meter(usage.calls, usage.limit)}
    <p class="muted">${formatPct(pct)}% da cota usada · restam ${formatInt(usage.remaining)} · a contagem recomeça em ${resetDay}.</p>
  </section>
</div>
<section class="card" aria-labelledby="diario-titulo">
  <h2 id="diario-titulo">Chamadas por dia</h2>
  ${usageChart(d.days, d.monthLength, d.today, d.monthLabel)}
</section>
<section class="card" aria-labelledby="uso-api-titulo">
  <h2 id="uso-api-titulo">Como chamar a API</h2>
  <dl class="kv">
    <dt>URL base</dt><dd><code>${base}</code></dd>
    <dt>Consulta</dt><dd><code>${breakAfterSlashes('GET /api/v1/brazilian_companies/{cnpj}/company')}</code></dd>
  </dl>
  <p>Envie o token no cabeçalho <code>Authorization</code>. Exemplo com <code>curl</code>:</p>
  <pre class="code" id="exemplo-curl">${breakAfterSlashes(curlExample(base))}</pre>
  <div class="actions">
    <button type="button" class="btn btn-secondary btn-small" data-copy="exemplo-curl" data-copy-status="exemplo-status" hidden>Copiar exemplo</button>
    <span class="copy-status" id="exemplo-status" role="status" aria-live="polite"></span>
  </div>
  <p class="muted">Também é aceito o parâmetro <code>?api_token=</code>, menos seguro porque o token pode aparecer em registros de servidores. Nunca publique um token em código-fonte.</p>
  <p>Campos da resposta, erros e exemplos: <a href="/docs">documentação da API</a>.</p>
</section>
<section class="card" aria-labelledby="compat-titulo">
  <h2 id="compat-titulo">Já usa outra API de CNPJ?</h2>
  <p>Estas rotas respondem no formato exato de cada serviço: basta trocar a URL base do seu código. Cada consulta conta na mesma cota.</p>
  <div class="table-wrap"><table class="stack"><thead><tr><th scope="col">Serviço</th><th scope="col">Rota</th></tr></thead><tbody>${COMPAT_SERVICES.map(
    (s) =>
      html`<tr><td data-label="Serviço">${s.service}</td><td data-label="Rota"><code>${breakAfterSlashes(`${base}${s.route.replace(/^GET /, '')}`)}</code></td></tr>`,
  )}</tbody></table></div>
  <p class="muted">O token vai no cabeçalho <code>Authorization</code> ou, para clientes que não enviam cabeçalhos, no prefixo <code>/t/SEU_TOKEN/</code> antes da rota. Detalhes: <a href="/docs#compatibilidade">documentação</a>.</p>
</section>`;
  return layout({ title: 'API de CNPJ', body, viewer: d.viewer, current: 'home', withCopyScript: true });
}
