// The /docs section of the change feed and a company's history: parameters and examples from the
// same schemas and code as the routes (feed-schema.ts, examples-changes.ts).
import { ChangesQuerySchema } from '../../domain/history/feed-schema.ts';
import { breakAfterSlashes, html, type Html } from '../web/html.ts';
import { parameterTable } from './docs-parts.ts';
import { changesCurl, changesExample, historyCurl, historyExample } from './examples-changes.ts';

const json = (v: unknown) => JSON.stringify(v, null, 2);

export function changesSection(baseUrl: string): Html {
  const example = changesExample();
  return html`<p><code>${breakAfterSlashes('GET /api/v1/changes')}</code>: o que mudou de um mês importado para o seguinte.
Cada item tem <code>cnpj</code> (14 caracteres) e <code>tipo</code>: <code>abertura</code> (CNPJ novo na base), <code>encerramento</code>
(CNPJ que saiu da base) ou <code>alteracao</code>, esta com <code>campo</code> (o nome do campo na consulta por CNPJ) e os valores
<code>antes</code> e <code>depois</code> como a consulta os mostrava. Em <code>socios</code>, <code>antes</code> lista os sócios que saíram e
<code>depois</code> os que entraram (uma mudança de qualificação aparece nas duas listas). Uma mudança da empresa (razão social, natureza
jurídica, capital social, porte, Simples/MEI, sócios) aparece uma vez, sob o CNPJ da <strong>matriz</strong>.</p>
<pre class="code">${breakAfterSlashes(changesCurl(baseUrl))}</pre>
${parameterTable(ChangesQuerySchema)}
<p>Os filtros de atributo valem para o CNPJ mostrado, com seus dados no mês novo (no mês anterior para <code>encerramento</code>);
<code>municipio</code> aceita o código da Receita ou o nome. Sem <code>month</code>, o mês mais recente registrado; um mês sem mudanças
registradas responde 404 <code>month_not_recorded</code>. A resposta traz <code>month</code>, <code>data</code> (em ordem de CNPJ e campo) e
<code>next_cursor</code>: para a página seguinte, repita a chamada com os mesmos filtros e <code>cursor</code>; <code>null</code> indica a última.
Uma página pode vir com menos itens que <code>limit</code> e ainda ter <code>next_cursor</code> (filtros muito raros): continue até
<code>null</code>.</p>
<pre class="code json" tabindex="0">${json(example)}</pre>
<p><code>${breakAfterSlashes('GET /api/v1/brazilian_companies/{cnpj}/history')}</code>: todas as mudanças registradas do estabelecimento e
da sua empresa, o mês mais recente primeiro, cada uma com seu <code>month</code>. Um CNPJ que não está na base nem no histórico responde 404.</p>
<pre class="code">${breakAfterSlashes(historyCurl(baseUrl))}</pre>
<pre class="code json" tabindex="0">${json(historyExample())}</pre>
<p><strong>Cota:</strong> cada página de mudanças e cada histórico contam uma consulta (também o 404 do histórico); parâmetros inválidos
(400) e mês não registrado (404 <code>month_not_recorded</code>) não contam.</p>`;
}
