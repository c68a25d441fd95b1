// Partners' `cnpj_cpf` as a search term. The dump publishes a person's CPF masked, only its digits
// 4–9 shown (`***123456**`), and a partner company's CNPJ in full. A query may give the masked
// form, a full CPF (its six middle digits are the only ones that can be compared) or a CNPJ. The
// build writes the same terms from the stored values (importer/search/document-sql.ts).
import { normalizeCnpj } from '../cnpj.ts';
import { term } from './terms.ts';

const MASKED_CPF = /^\*{3}(\d{6})\*{2}$/;
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
