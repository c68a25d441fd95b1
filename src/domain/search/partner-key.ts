// Partners' `cnpj_cpf` as a search term. The dump publishes a person's CPF masked, only its digits
// 4–9 shown (`***123456**`), and a partner company's CNPJ in full. A query may give the masked
// form, a full CPF (its six middle digits are the only ones that can be compared) or a CNPJ.
import { normalizeCnpj } from '../cnpj.ts';
import { words } from './normalize.ts';
import { term } from './terms.ts';

const MASKED_CPF = /^\*{3}(\d{6})\*{2}$/;
const STORED_CNPJ = /^[0-9A-Z]{12}\d{2}$/;

/** The term of a stored cnpj_cpf, or null for an empty or unknown shape. */
export function storedPartnerKey(v: string | null): string | null {
  if (v === null) return null;
  const t = v.trim();
  const cpf = MASKED_CPF.exec(t);
  if (cpf) return term.partnerCpf(cpf[1]);
  return STORED_CNPJ.test(t) ? term.partnerCnpj(t) : null;
}

/** The FTS document of a partner row: name words, then its key term. */
export function partnerDocument(nome: string | null, cnpjCpf: string | null): string {
  const key = storedPartnerKey(cnpjCpf);
  const w = words(nome);
  if (key !== null) w.push(key);
  return w.join(' ');
}

/**
 * The term for a `cnpj_cpf` query value: `***123456**`, a CPF of 11 digits (punctuation allowed:
 * `123.456.789-01`) or a valid CNPJ. null when it is none of these (the caller answers 400).
 */
export function partnerKeyTerm(input: string): string | null {
  const t = input.trim();
  const masked = MASKED_CPF.exec(t);
  if (masked) return term.partnerCpf(masked[1]);
  const digits = t.replace(/[.\-\s]/g, '');
  if (/^\d{11}$/.test(digits)) return term.partnerCpf(digits.slice(3, 9));
  const cnpj = normalizeCnpj(t);
  return cnpj === null ? null : term.partnerCnpj(cnpj);
}
