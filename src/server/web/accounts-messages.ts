// The web app's Portuguese for the domain errors a page can meet. The domain's own messages are
// English, for the operator; a customer sees only these.
import { AccountsError, type AccountsErrorCode, type AccountsReason } from '../../domain/accounts/errors.ts';
import { MAX_EXPIRY_DAYS } from '../../domain/accounts/tokens.ts';

const BY_REASON: Record<AccountsReason, string> = {
  token_name: 'O nome do token deve ter de 1 a 100 caracteres.',
  expiry_days: `A validade deve ser de 1 a ${MAX_EXPIRY_DAYS} dias.`,
  expiry_past: 'A data de expiração já passou.',
  expiry_too_far: `A data de expiração está longe demais (máximo ${MAX_EXPIRY_DAYS} dias).`,
  expiry_unrecognised: 'Data de expiração não reconhecida.',
  account_suspended: 'A conta está suspensa: não é possível criar tokens.',
  token_not_found: 'Token não encontrado.',
  token_invalidated: 'Este token foi invalidado pela suspensão da conta e não pode ser reativado; crie um novo.',
};

const BY_CODE: Record<AccountsErrorCode, string> = {
  invalid_input: 'Dados inválidos.',
  not_found: 'Não encontrado.',
  already_exists: 'Já existe.',
  invalid_state: 'Esta operação não é possível agora.',
  invalid_csv: 'Arquivo CSV inválido.',
  last_billing_admin: 'A conta precisa de ao menos um administrador de cobrança.',
};

export function webMessage(err: AccountsError): string {
  return (err.reason && BY_REASON[err.reason]) || BY_CODE[err.code];
}
