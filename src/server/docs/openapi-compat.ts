// The compat routes in /openapi.json: each upstream's body as its TypeBox schema, and each error
// answer with an example written by the shape itself (domain/compat), so the document says what
// the routes send. The /t/{token}/ prefix is described, not listed as four more paths. Also their
// /docs section (docs-page.ts).
import { ERRORS, type ErrorKey } from '../../domain/api-errors.ts';
import { EXAMPLE_CNPJ, makeCnpj } from '../../domain/cnpj.ts';
import { BrasilApiErrorSchema } from '../../domain/compat/brasilapi-schema.ts';
import { MinhaReceitaCompanySchema, MinhaReceitaErrorSchema } from '../../domain/compat/minha-receita-schema.ts';
import { OpenCnpjErrorSchema, OpenCnpjSchema } from '../../domain/compat/opencnpj-schema.ts';
import { ReceitawsBodySchema, ReceitawsErrorSchema } from '../../domain/compat/receitaws-schema.ts';
import type { CompatShape } from '../../domain/compat/shape.ts';
import { COMPAT_SERVICES } from '../../domain/compat/services.ts';
import { compatCurl } from './examples-compat.ts';
import { curlSample, plain, RATE_HEADERS } from './openapi-parts.ts';
import { breakAfterSlashes, html } from '../web/html.ts';
import { docsTable } from './docs-parts.ts';
import type { PageSection } from './docs-page.ts';

export const COMPAT_SCHEMAS = {
  MinhaReceitaCompany: plain(MinhaReceitaCompanySchema),
  MinhaReceitaError: plain(MinhaReceitaErrorSchema),
  BrasilApiError: plain(BrasilApiErrorSchema),
  OpenCnpj: plain(OpenCnpjSchema),
  OpenCnpjError: plain(OpenCnpjErrorSchema),
  Receitaws: plain(ReceitawsBodySchema),
  ReceitawsError: plain(ReceitawsErrorSchema),
};

/** Per shape: the body and error schemas, and what the title adds to the service's name. */
const DOCUMENTED: Record<CompatShape['name'], { body: string; error: string; note?: string }> = {
  brasilapi: { body: 'MinhaReceitaCompany', error: 'BrasilApiError', note: 'o corpo é o da Minha Receita, compacto' },
  'minha-receita': { body: 'MinhaReceitaCompany', error: 'MinhaReceitaError' },
  opencnpj: { body: 'OpenCnpj', error: 'OpenCnpjError' },
  receitaws: { body: 'Receitaws', error: 'ReceitawsError', note: 'erros do CNPJ com HTTP 200' },
};

const ABSENT = makeCnpj('99999999', '0001');
/** Our refusals documented per compat route, by status. */
const REFUSALS: readonly ErrorKey[] = [
  'missing_token',
  'invalid_token',
  'account_suspended',
  'quota_exceeded',
  'registry_unavailable',
];

function responses(shape: CompatShape, body: string, error: string): Record<string, unknown> {
  const json = (schema: string, examples: Record<string, string>) => ({
    'application/json': {
      schema: { $ref: `#/components/schemas/${schema}` },
      examples: Object.fromEntries(Object.entries(examples).map(([k, v]) => [k, { value: JSON.parse(v) }])),
    },
  });
  const parsed = shape.parse('123');
  const invalid = 'invalid' in parsed ? parsed.invalid : null;
  const notFound = shape.notFound(ABSENT);
  const out: Record<string, { description: string; headers?: unknown; content: Record<string, unknown> }> = {};
  const add = (status: number, description: string, schema: string, name: string, text: string) => {
    const key = String(status);
    const have = out[key];
    if (have) {
      const c = have.content['application/json'] as {
        schema: Record<string, unknown>;
        examples: Record<string, unknown>;
      };
      c.examples[name] = { value: JSON.parse(text) };
      // ReceitaWS answers its CNPJ errors with HTTP 200: the 200 is either body.
      const ref = { $ref: `#/components/schemas/${schema}` };
      if (c.schema.$ref !== undefined && c.schema.$ref !== ref.$ref) c.schema = { oneOf: [c.schema, ref] };
      have.description += ` ${description}`;
    } else out[key] = { description, headers: RATE_HEADERS, content: json(schema, { [name]: text }) };
  };
  out['200'] = { description: 'Estabelecimento encontrado.', headers: RATE_HEADERS, content: json(body, {}) };
  if (invalid) add(invalid.status, 'CNPJ malformado (não conta na cota).', error, 'cnpj_invalido', invalid.body);
  add(notFound.status, 'CNPJ ausente da base carregada (conta na cota).', error, 'nao_encontrado', notFound.body);
  for (const key of REFUSALS) {
    const def = ERRORS[key];
    add(
      def.status,
      `\`${def.error}\`: ${def.when}`,
      error,
      def.error,
      shape.refused(def.status, def.error, def.message).body,
    );
  }
  return out;
}

const operationId = (name: CompatShape['name']) => `compat_${name.replace(/-/g, '_')}`;

export function compatPaths(baseUrl: string): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const { shape, service, route } of COMPAT_SERVICES) {
    const doc = DOCUMENTED[shape.name];
    paths[route.replace(/^GET /, '')] = {
      get: {
        operationId: operationId(shape.name),
        tags: ['compatibilidade'],
        summary: `Consulta no formato ${service}${doc.note ? ` (${doc.note})` : ''}`,
        description:
          'Resposta no formato exato do serviço original, com os dados da base carregada: troque só a URL base do cliente. ' +
          'Conta na cota como a consulta nativa (encontrado e não encontrado contam; CNPJ malformado não). ' +
          'O token também pode ir no prefixo /t/{token}/ antes da rota, para clientes que não enviam cabeçalhos. ' +
          'CORS liberado (Access-Control-Allow-Origin: *) em toda resposta.' +
          (shape.name === 'receitaws' ? ' Aceita JSONP: ?callback=nomeDaFuncao.' : ''),
        parameters: [
          {
            name: 'cnpj',
            in: 'path',
            required: true,
            description: 'CNPJ com ou sem pontuação, validado como o serviço original valida.',
            schema: { type: 'string', examples: [EXAMPLE_CNPJ] },
          },
        ],
        'x-codeSamples': curlSample(compatCurl(baseUrl, 'header'), compatCurl(baseUrl, 'path')),
        responses: responses(shape, doc.body, doc.error),
      },
    };
  }
  return paths;
}

/**
 * How a client moves (its base URL only), the token's three places, counting, CORS and JSONP. The
 * fields of each shape are the upstream's (docs/compat.md in the repository lists them with their
 * sources).
 */
export const COMPAT_SECTION: PageSection = {
  id: 'compatibilidade',
  title: 'Compatibilidade: BrasilAPI, Minha Receita, OpenCNPJ, ReceitaWS',
  text: ({ op }) => {
    const rows = COMPAT_SERVICES.map((s) => [
      s.service,
      html`<code>${op(operationId(s.shape.name)).route()}</code>`,
      breakAfterSlashes(s.upstream),
      s.errors,
    ]);
    const brasilApi = op(operationId('brasilapi'));
    return html`<p>Quem já consulta CNPJs pela BrasilAPI, pela Minha Receita, pela OpenCNPJ ou pela ReceitaWS pode usar esta API
trocando só a URL base: cada rota abaixo responde no formato exato do serviço original (mesmos campos, tipos, formatos de data,
dinheiro, CEP e telefone, mesma ordem, mesmas respostas de erro), com os dados da base carregada.</p>
${docsTable(['Serviço', 'Rota aqui', 'URL original', 'Erros'], rows)}
<p><strong>Token:</strong> no cabeçalho <code>Authorization: Bearer</code>, no parâmetro <code>api_token</code>, ou, para clientes que
não enviam cabeçalhos (uma biblioteca com a URL fixa, uma tag <code>&lt;script&gt;</code>), no prefixo <code>/t/{token}/</code> antes da
rota. Um token errado no prefixo é 401, mesmo com outro token no cabeçalho. O token no caminho aparece no navegador e no histórico: prefira
o cabeçalho quando o cliente permitir.</p>
${brasilApi.curl(0)}
${brasilApi.curl(1)}
<p><strong>Cota:</strong> cada consulta conta como uma consulta da API nativa: respostas encontradas e não encontradas contam; CNPJ
malformado não conta. As respostas trazem <code>X-RateLimit-Limit</code>, <code>X-RateLimit-Remaining</code> e
<code>X-RateLimit-Reset</code>. Recusas desta API (token, cota, base indisponível) vêm no envelope de erro do serviço original, com o
código desta API (por exemplo <code>quota_exceeded</code>) e o status HTTP desta API.</p>
<p><strong>Navegadores:</strong> toda resposta traz <code>Access-Control-Allow-Origin: *</code> e as rotas respondem ao preflight
(<code>OPTIONS</code>). A rota da ReceitaWS aceita JSONP: <code>?callback=nomeDaFuncao</code> devolve
<code>nomeDaFuncao({...})</code> como JavaScript, também para os erros.</p>
<p>Exemplo: <code>${op(operationId('minha-receita')).examplePath()}</code>, <code>${op(operationId('opencnpj')).examplePath()}</code>.
Os esquemas de cada formato estão em <a href="/openapi.json">/openapi.json</a>.</p>`;
  },
};
