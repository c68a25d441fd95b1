// The /docs sections of the routes that answer many companies: a company's establishments and the
// batch lookup (the search adds its own beside them). Parameters, bodies and examples come from
// the same schemas and code as the routes (list-schema.ts, examples.ts).
import { EstablishmentsQuerySchema } from '../../domain/company/list-schema.ts';
import { breakAfterSlashes, html, type Html } from '../web/html.ts';
import { batchCurl, batchExample, establishmentsCurl, establishmentsExample } from './examples.ts';
import { parameterTable } from './docs-parts.ts';

const json = (v: unknown) => JSON.stringify(v, null, 2);

/** A batch example with its one full answer cut short: the other two items are the point. */
function batchExampleText(): string {
  const [found, ...rest] = batchExample().results;
  const short = { ...found, data: { company: { cnpj: found!.cnpj, '…': '…' }, socios: ['…'], contatos_extras: ['…'] } };
  return json({ results: [short, ...rest] });
}

export function establishmentsSection(baseUrl: string): Html {
  const example = establishmentsExample();
  return html`<p><code>${breakAfterSlashes('GET /api/v1/brazilian_companies/{cnpj}/establishments')}</code>: todos os estabelecimentos da empresa,
isto é, da raiz do CNPJ (os 8 primeiros caracteres): a <strong>matriz primeiro</strong>, depois os demais em ordem de CNPJ.
Qualquer CNPJ da empresa serve; um CNPJ que não está na base responde 404.</p>
<pre class="code">${breakAfterSlashes(establishmentsCurl(baseUrl))}</pre>
${parameterTable(EstablishmentsQuerySchema)}
<p>A resposta traz <code>data</code> (lista de objetos <code>company</code>, os mesmos da consulta por CNPJ, sem <code>socios</code>, que são
os mesmos para toda a empresa) e <code>next_cursor</code>. Para a página seguinte, repita a chamada com <code>cursor</code> igual ao
<code>next_cursor</code> recebido; <code>null</code> indica a última página. O cursor é opaco e vale só para a mesma empresa: um cursor
alterado ou de outra consulta responde 400 <code>invalid_parameter</code>.</p>
<pre class="code">${breakAfterSlashes(establishmentsCurl(baseUrl, example.next_cursor ?? ''))}</pre>
<p><strong>Cota:</strong> cada página conta uma consulta (também o 404); parâmetros inválidos (400) não contam.</p>`;
}

export function batchSection(baseUrl: string): Html {
  return html`<p><code>${breakAfterSlashes('POST /api/v1/brazilian_companies/batch')}</code>: até 1.000 CNPJs numa só requisição, com
o corpo JSON <code>{"cnpjs": [...]}</code> (com ou sem pontuação) e o cabeçalho <code>Content-Type: application/json</code>; o corpo
pode ter até 64 KB.</p>
<pre class="code">${breakAfterSlashes(batchCurl(baseUrl))}</pre>
<p>A resposta traz <code>results</code>: um item por CNPJ enviado, na mesma ordem, com <code>cnpj</code> (normalizado; o texto enviado
quando inválido) e <code>status</code>: 200 com <code>data</code> (a resposta completa da consulta por CNPJ), 404
<code>not_found</code> ou 400 <code>invalid_cnpj</code>, com <code>error</code> e <code>message</code>.</p>
<pre class="code json" tabindex="0">${batchExampleText()}</pre>
<p><strong>Cota:</strong> conta uma consulta por CNPJ válido distinto, encontrado ou não (um CNPJ repetido é respondido em cada posição e
conta uma vez; inválidos não contam). As consultas do lote são reservadas de uma só vez: se restarem menos do que o lote precisa, a
resposta é 429 <code>quota_exceeded</code> e nenhum CNPJ é respondido nem contado. Corpo inválido: 400 <code>invalid_body</code>;
sem <code>Content-Type: application/json</code>: 415; acima de 64 KB: 413.</p>`;
}
