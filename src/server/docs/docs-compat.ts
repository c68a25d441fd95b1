// The /docs section of the compat routes: the four upstream shapes served here, how a client
// moves (its base URL only), the token's three places, counting, CORS and JSONP. The fields of
// each shape are the upstream's (docs/compat.md in the repository lists them with their sources).
import { EXAMPLE_CNPJ } from '../../domain/cnpj.ts';
import { breakAfterSlashes, html, type Html } from '../web/html.ts';
import { COMPAT_SERVICES } from '../../domain/compat/services.ts';
import { compatCurl } from './examples-compat.ts';
import { docsTable } from './docs-parts.ts';

export function compatSection(baseUrl: string): Html {
  const rows = COMPAT_SERVICES.map((s) => [
    s.service,
    html`<code>${breakAfterSlashes(s.route)}</code>`,
    breakAfterSlashes(s.upstream),
    s.errors,
  ]);
  return html`<p>Quem já consulta CNPJs pela BrasilAPI, pela Minha Receita, pela OpenCNPJ ou pela ReceitaWS pode usar esta API
trocando só a URL base: cada rota abaixo responde no formato exato do serviço original (mesmos campos, tipos, formatos de data,
dinheiro, CEP e telefone, mesma ordem, mesmas respostas de erro), com os dados da base carregada.</p>
${docsTable(['Serviço', 'Rota aqui', 'URL original', 'Erros'], rows)}
<p><strong>Token:</strong> no cabeçalho <code>Authorization: Bearer</code>, no parâmetro <code>api_token</code>, ou, para clientes que
não enviam cabeçalhos (uma biblioteca com a URL fixa, uma tag <code>&lt;script&gt;</code>), no prefixo <code>/t/{token}/</code> antes da
rota. Um token errado no prefixo é 401, mesmo com outro token no cabeçalho. O token no caminho aparece no navegador e no histórico: prefira
o cabeçalho quando o cliente permitir.</p>
<pre class="code">${breakAfterSlashes(compatCurl(baseUrl, 'header'))}</pre>
<pre class="code">${breakAfterSlashes(compatCurl(baseUrl, 'path'))}</pre>
<p><strong>Cota:</strong> cada consulta conta como uma consulta da API nativa: respostas encontradas e não encontradas contam; CNPJ
malformado não conta. As respostas trazem <code>X-RateLimit-Limit</code>, <code>X-RateLimit-Remaining</code> e
<code>X-RateLimit-Reset</code>. Recusas desta API (token, cota, base indisponível) vêm no envelope de erro do serviço original, com o
código desta API (por exemplo <code>quota_exceeded</code>) e o status HTTP desta API.</p>
<p><strong>Navegadores:</strong> toda resposta traz <code>Access-Control-Allow-Origin: *</code> e as rotas respondem ao preflight
(<code>OPTIONS</code>). A rota da ReceitaWS aceita JSONP: <code>?callback=nomeDaFuncao</code> devolve
<code>nomeDaFuncao({...})</code> como JavaScript, também para os erros.</p>
<p>Exemplo: <code>${breakAfterSlashes(`/minha-receita/${EXAMPLE_CNPJ}`)}</code>, <code>${breakAfterSlashes(`/opencnpj/${EXAMPLE_CNPJ}`)}</code>.
Os esquemas de cada formato estão em <a href="/openapi.json">/openapi.json</a>.</p>`;
}
