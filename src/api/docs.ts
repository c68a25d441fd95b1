// GET /docs: a readable page (Portuguese) built from the same sources as /openapi.json: the
// TypeBox schemas (fields, types, descriptions), the error table and the real example response.
import type { TSchema } from '@sinclair/typebox';
import { CompanySchema, ContatoExtraSchema, SocioSchema } from '../company/schema.ts';
import { exampleResponse } from '../company/example.ts';
import { ERRORS } from './errors.ts';
import { API_DESCRIPTION } from './openapi.ts';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

interface JsonSchemaLike {
  type?: string;
  format?: string;
  items?: JsonSchemaLike;
  anyOf?: JsonSchemaLike[];
  description?: string;
}

function typeName(s: JsonSchemaLike): string {
  if (s.anyOf) return s.anyOf.map(typeName).join(' ou ');
  if (s.type === 'array') return `lista de ${typeName(s.items ?? {})}`;
  if (s.type === 'string' && s.format === 'date') return 'data (AAAA-MM-DD)';
  const names: Record<string, string> = { string: 'texto', integer: 'inteiro', boolean: 'booleano', null: 'null', number: 'número' };
  return names[s.type ?? ''] ?? s.type ?? '';
}

function fieldTable(schema: TSchema & { properties: Record<string, TSchema>; required?: string[] }): string {
  const required = new Set(schema.required ?? []);
  const rows = Object.entries(schema.properties).map(([name, prop]) => {
    const p = prop as JsonSchemaLike;
    const opt = required.has(name) ? '' : ' <em>(opcional)</em>';
    return `<tr><td><code>${esc(name)}</code>${opt}</td><td>${esc(typeName(p))}</td><td>${esc(p.description ?? '')}</td></tr>`;
  });
  return `<table><thead><tr><th>Campo</th><th>Tipo</th><th>Descrição</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

export function buildDocsHtml(baseUrl: string): string {
  const errors = Object.values(ERRORS)
    .map((e) => `<tr><td>${e.status}</td><td><code>${esc(e.error)}</code></td><td>${esc(e.when)}</td><td>${esc(e.message)}</td></tr>`)
    .join('');
  const url = `${baseUrl}/api/v1/brazilian_companies/33683111000280/company`;
  return `<!doctype html>
<html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>API de CNPJ: documentação</title>
<style>
body{font-family:system-ui,sans-serif;max-width:960px;margin:2rem auto;padding:0 1rem;line-height:1.5;color:#1b1b1b}
table{border-collapse:collapse;width:100%;margin:1rem 0;font-size:.92rem}th,td{border:1px solid #ccc;padding:.3rem .5rem;text-align:left;vertical-align:top}
th{background:#f2f2f2}code,pre{background:#f6f6f6;border-radius:3px}pre{padding:.8rem;overflow-x:auto;font-size:.85rem}
h2{margin-top:2.2rem;border-bottom:1px solid #ddd}
</style></head><body>
<h1>API de CNPJ</h1>
<p>${esc(API_DESCRIPTION)}</p>
<p>Especificação OpenAPI 3.1: <a href="/openapi.json">/openapi.json</a>.</p>

<h2>Autenticação</h2>
<p>Crie um token na área <strong>API de CNPJ</strong>, botão <strong>Gerenciar Tokens da API</strong>. O token é mostrado uma única vez.</p>
<ul>
<li>Recomendado: cabeçalho <code>Authorization: Bearer &lt;token&gt;</code>.</li>
<li>Alternativa: parâmetro <code>?api_token=&lt;token&gt;</code> (menos seguro: a URL pode ficar em logs). Se os dois forem enviados, vale o cabeçalho.</li>
</ul>

<h2>Consultar uma empresa</h2>
<p><code>GET /api/v1/brazilian_companies/{cnpj}/company</code>: <code>cnpj</code> com 14 caracteres sem pontuação
(letras A–Z nas 12 primeiras posições são aceitas, para os CNPJs alfanuméricos; minúsculas viram maiúsculas; pontuação é aceita por conveniência).</p>
<pre>curl -H "Authorization: Bearer $CNPJ_API_TOKEN" ${esc(url)}</pre>
<p>Respostas 200 e 404 contam uma consulta na cota mensal do plano; CNPJ inválido (400) e falhas de autenticação não contam.
Toda resposta autenticada traz <code>X-RateLimit-Limit</code>, <code>X-RateLimit-Remaining</code> e <code>X-RateLimit-Reset</code>;
a resposta 429 traz também <code>Retry-After</code> (segundos).</p>

<h3>Resposta</h3>
<p>Objeto com <code>company</code>, <code>socios</code> e <code>contatos_extras</code>.</p>
<h3><code>company</code></h3>
${fieldTable(CompanySchema)}
<h3><code>socios[]</code></h3>
${fieldTable(SocioSchema)}
<h3><code>contatos_extras[]</code></h3>
${fieldTable(ContatoExtraSchema)}

<h3>Exemplo</h3>
<pre>${esc(JSON.stringify(exampleResponse(), null, 2))}</pre>

<h2>Erros</h2>
<p>Toda resposta de erro é JSON: <code>{"error": "&lt;código&gt;", "message": "&lt;frase em português&gt;"}</code>.</p>
<table><thead><tr><th>Status</th><th>error</th><th>Quando</th><th>message</th></tr></thead><tbody>${errors}</tbody></table>

<h2>Outras rotas</h2>
<ul>
<li><code>GET /healthz</code>: 200 quando o processo está no ar.</li>
<li><code>GET /api/v1/status</code>: mês da base carregada, data da importação e contagem de linhas (sem token).</li>
</ul>
</body></html>`;
}
