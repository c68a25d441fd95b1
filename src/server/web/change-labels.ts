// How the web app shows a recorded change (domain/history/item.ts) to a person: Portuguese labels
// for its tipo and campo (the lookup's field names), and its values as readable text.
import type { ChangeItem } from '../../domain/history/item.ts';
import { formatDay } from './format.ts';

export const TIPO_LABELS: Record<ChangeItem['tipo'], string> = {
  abertura: 'Abertura',
  encerramento: 'Encerramento',
  alteracao: 'Alteração',
};

/** The campos history.db records (domain/history/fields.ts); an unknown one is shown by its name. */
export const CAMPO_LABELS: Record<string, string> = {
  situacao_cadastral: 'Situação cadastral',
  data_situacao_cadastral: 'Data da situação cadastral',
  motivo_situacao_cadastral: 'Motivo da situação cadastral',
  tipo_logradouro: 'Tipo de logradouro',
  logradouro: 'Logradouro',
  numero: 'Número',
  complemento: 'Complemento',
  bairro: 'Bairro',
  cep: 'CEP',
  municipio: 'Município',
  uf: 'UF',
  cnae_fiscal: 'CNAE principal',
  cnaes_secundarios: 'CNAEs secundários',
  nome_fantasia: 'Nome fantasia',
  ddd_1: 'DDD do telefone 1',
  telefone_1: 'Telefone 1',
  ddd_2: 'DDD do telefone 2',
  telefone_2: 'Telefone 2',
  email: 'E-mail',
  razao_social: 'Razão social',
  natureza_juridica: 'Natureza jurídica',
  capital_social: 'Capital social',
  porte: 'Porte',
  opc_simples: 'Opção pelo Simples Nacional',
  opc_mei: 'Opção pelo MEI',
  socios: 'Sócios',
  regime_tributario: 'Regime tributário',
  ano_regime_tributario: 'Ano do regime tributário',
  escrituracoes_regime_tributario: 'Escriturações do regime tributário',
};

export const campoLabel = (campo: string | undefined): string =>
  campo === undefined ? '—' : (CAMPO_LABELS[campo] ?? campo);

const brl = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });

/** A value as the lookup showed it, as text: "—" for nothing, dates dd/mm/aaaa, a partner by name and qualificação. */
export function valueText(v: unknown, campo?: string): string {
  if (v === null || v === undefined || v === '') return '—';
  if (typeof v === 'boolean') return v ? 'sim' : 'não';
  if (Array.isArray(v)) return v.length === 0 ? '—' : v.map((x) => valueText(x, campo)).join('; ');
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if (typeof o.nome_socio === 'string')
      return o.qualificacao_socio ? `${o.nome_socio} (${String(o.qualificacao_socio)})` : o.nome_socio;
    return JSON.stringify(v);
  }
  const s = String(v);
  if (/^\d{4}-\d{2}-\d{2}$/.test(s)) return formatDay(s);
  // The decimal text itself, not Number(s): exact past 2^53 (Intl formats a numeric string exactly).
  if (campo === 'capital_social' && /^\d+(\.\d+)?$/.test(s)) return brl.format(s as Intl.StringNumericLiteral);
  return s;
}
