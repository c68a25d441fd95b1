// The compat routes in /openapi.json: each upstream's body as its TypeBox schema, and each error
// answer with an example written by the shape itself (domain/compat), so the document says what
// the routes send. The /t/{token}/ prefix is described, not listed as four more paths.
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

export function compatPaths(baseUrl: string): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const { shape, service, route } of COMPAT_SERVICES) {
    const doc = DOCUMENTED[shape.name];
    paths[route.replace(/^GET /, '')] = {
      get: {
        operationId: `compat_${shape.name.replace(/-/g, '_')}`,
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
