// Tables of the /docs page built from TypeBox schemas: a response's fields, a route's query
// parameters (the same schema the route reads them with). Tables are `stack` tables: on a narrow
// screen each row becomes a card, each cell led by its column's name (data-label).
import type { TObject, TSchema } from '@sinclair/typebox';
import { html, type Html } from '../web/html.ts';

interface JsonSchemaLike {
  type?: string;
  format?: string;
  items?: JsonSchemaLike;
  anyOf?: JsonSchemaLike[];
  const?: unknown;
  description?: string;
  default?: unknown;
}

export function typeName(s: JsonSchemaLike): string {
  if (s.anyOf) return s.anyOf.map(typeName).join(' ou ');
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.type === 'array') return `lista de ${typeName(s.items ?? {})}`;
  if (s.type === 'string' && s.format === 'date') return 'data (AAAA-MM-DD)';
  const names: Record<string, string> = {
    string: 'texto',
    integer: 'inteiro',
    boolean: 'booleano',
    null: 'null',
    number: 'número',
    object: 'objeto',
  };
  return names[s.type ?? ''] ?? s.type ?? '';
}

export function fieldTable(schema: TSchema & { properties: Record<string, TSchema>; required?: string[] }): Html {
  const required = new Set(schema.required ?? []);
  const rows = Object.entries(schema.properties).map(([name, prop]) => {
    const p = prop as JsonSchemaLike;
    return html`<tr><td data-label="Campo"><code>${name}</code>${required.has(name) ? '' : html` <em>(opcional)</em>`}</td><td data-label="Tipo">${typeName(p)}</td><td data-label="Descrição">${p.description ?? ''}</td></tr>`;
  });
  return html`<div class="table-wrap"><table class="stack docs-table"><thead><tr><th scope="col">Campo</th><th scope="col">Tipo</th><th scope="col">Descrição</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

export function parameterTable(schema: TObject): Html {
  const rows = Object.entries(schema.properties as Record<string, TSchema>).map(([name, prop]) => {
    const p = prop as JsonSchemaLike;
    return html`<tr><td data-label="Parâmetro"><code>${name}</code></td><td data-label="Tipo">${typeName(p)}</td><td data-label="Descrição">${p.description ?? ''}</td></tr>`;
  });
  return html`<div class="table-wrap"><table class="stack docs-table"><thead><tr><th scope="col">Parâmetro</th><th scope="col">Tipo</th><th scope="col">Descrição</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}
