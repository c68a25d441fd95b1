// The /docs section of the watchlist: the four routes, their parameters from the route's own
// schema, curl examples and answers built by the real code (examples-watchlist.ts).
import { WatchlistQuerySchema } from '../../domain/watchlist/schema.ts';
import { breakAfterSlashes, html, type Html } from '../web/html.ts';
import { parameterTable } from './docs-parts.ts';
import {
  watchlistAddCurl,
  watchlistAddExample,
  watchlistDeleteCurl,
  watchlistListCurl,
  watchlistPageExample,
  watchlistPutCurl,
} from './examples-watchlist.ts';

const json = (v: unknown) => JSON.stringify(v, null, 2);

export function watchlistSection(baseUrl: string): Html {
  const page = watchlistPageExample();
  return html`<p>A conta monitora uma lista de CNPJs: a cada mês importado, as mudanças desses CNPJs (abertura, encerramento, alterações
de situação, endereço, sócios…) aparecem na área <strong>API de CNPJ</strong>, página <strong>Monitoramento</strong>. Basta o CNPJ ser
válido: ele não precisa estar na base carregada (um CNPJ que ainda vai abrir, ou que já foi encerrado, pode ser monitorado). O plano
limita quantos CNPJs a conta monitora.</p>
<p><code>${breakAfterSlashes('PUT /api/v1/watchlist/{cnpj}')}</code>: passa a monitorar o CNPJ (com ou sem pontuação). Responde 201 quando
ele entra na lista e 200 quando já estava, com <code>cnpj</code>, <code>added_at</code>, <code>total</code> e <code>watchlist_limit</code>.</p>
<pre class="code">${breakAfterSlashes(watchlistPutCurl(baseUrl))}</pre>
<p><code>${breakAfterSlashes('DELETE /api/v1/watchlist/{cnpj}')}</code>: deixa de monitorar. Responde 204 sem corpo, ou 404
<code>not_watched</code> quando o CNPJ não estava na lista.</p>
<pre class="code">${breakAfterSlashes(watchlistDeleteCurl(baseUrl))}</pre>
<p><code>${breakAfterSlashes('GET /api/v1/watchlist')}</code>: a lista em ordem de CNPJ, em páginas. Para a página seguinte, repita a
chamada com <code>cursor</code> igual ao <code>next_cursor</code> recebido; <code>null</code> indica a última página.</p>
<pre class="code">${breakAfterSlashes(watchlistListCurl(baseUrl))}</pre>
${parameterTable(WatchlistQuerySchema)}
<pre class="code json" tabindex="0">${json(page)}</pre>
<p><code>${breakAfterSlashes('POST /api/v1/watchlist')}</code>: adiciona até 1.000 CNPJs de uma vez, com o corpo
<code>{"cnpjs": [...]}</code> e o cabeçalho <code>Content-Type: application/json</code>. Os válidos entram todos juntos; os inválidos
são informados no item (400 <code>invalid_cnpj</code>) e não entram. A resposta traz um item por CNPJ enviado, na mesma ordem: 201
(entrou agora), 200 (já estava) ou 400.</p>
<pre class="code">${breakAfterSlashes(watchlistAddCurl(baseUrl))}</pre>
<pre class="code json" tabindex="0">${json(watchlistAddExample())}</pre>
<p><strong>Limite do plano:</strong> quando os CNPJs novos passariam do limite, nenhum entra e a resposta é 409
<code>watchlist_limit_exceeded</code>, com uma mensagem que diz quantas vagas restam.</p>
<p><strong>Cota:</strong> cada requisição conta uma consulta (também 404 e 409); CNPJ, parâmetro ou corpo inválidos (400, 413, 415) não
contam, nem uma lista sem nenhum CNPJ válido.</p>`;
}
