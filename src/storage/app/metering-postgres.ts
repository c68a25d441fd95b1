// The metering's reads and counts on the fleet's shared PostgreSQL (storage/app/metering.ts says
// what they promise). Each is ONE round trip: the epochs and the rows in one statement (one
// snapshot), a batch in one call of count_calls() (migrations/postgres/0002), which compares the
// epoch, locks the batch's accounts in id order and commits with synchronous_commit = on. An
// unreachable database rejects with DatabaseUnavailable (503): the pool's connection timeout and
// each query's read timeout bound the wait, and the pool reconnects by itself later.
import type pg from 'pg';
import type {
  AccountRead,
  AccountRecord,
  ContactRow,
  ContactsStore,
  CountBatch,
  Counted,
  Epochs,
  MeteringStore,
  TokenRead,
  TokenRecord,
} from './metering.ts';
import { DatabaseUnavailable, isDatabaseUnavailable } from './pg-errors.ts';

/** How long a hot-path query may take before its calls fail with 503 (the connection is dropped). */
const QUERY_TIMEOUT_MS = 5_000;

const TOKEN_COLUMNS = `t.id AS token_id, t.token_hash, t.account_id, t.enabled, t.expires_at, t.invalidated_at,
  a.name AS account_name, a.status, a.plan, p.monthly_quota, p.api_included`;
const TOKEN_FROM = 'api_tokens t JOIN accounts a ON a.id = t.account_id JOIN plans p ON p.name = a.plan';
/** The epochs and the rows of `select`, read in one statement (one snapshot). */
const withEpochs = (select: string) =>
  `SELECT e.auth, e.contacts, r.* FROM
     (SELECT (SELECT n FROM auth_epoch WHERE id = 1) AS auth, (SELECT n FROM contacts_epoch WHERE id = 1) AS contacts) e
   LEFT JOIN (${select}) r ON true`;

const BY_HASH = withEpochs(
  `SELECT ${TOKEN_COLUMNS}, (SELECT calls FROM usage_monthly m WHERE m.account_id = t.account_id AND m.month = $2) AS month_calls
   FROM ${TOKEN_FROM} WHERE t.token_hash = $1`,
);
const BY_IDS = withEpochs(`SELECT ${TOKEN_COLUMNS} FROM ${TOKEN_FROM} WHERE t.id = ANY ($1::bigint[])`);
const ACCOUNTS = withEpochs(
  `SELECT a.id AS account_id, a.name AS account_name, a.status, a.plan, p.monthly_quota, p.api_included
   FROM accounts a JOIN plans p ON p.name = a.plan WHERE a.id = ANY ($1::bigint[])`,
);
const ACCOUNT_USAGE = withEpochs(
  `SELECT a.id AS account_id, a.name AS account_name, a.status, a.plan, p.monthly_quota, p.api_included,
     (SELECT calls FROM usage_monthly m WHERE m.account_id = a.id AND m.month = $2) AS month_calls
   FROM accounts a JOIN plans p ON p.name = a.plan WHERE a.id = $1`,
);
const COUNT = 'SELECT auth, contacts, ok, used FROM count_calls($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)';
// The epoch and the rows in one statement: the copy is exactly the epoch's.
const CONTACTS = `SELECT (SELECT n FROM contacts_epoch WHERE id = 1) AS epoch,
  (SELECT json_agg(json_build_array(cnpj, tipo_contato, tipo_website, contato) ORDER BY id) FROM extra_contacts) AS rows`;

/** A row of withEpochs(): the epochs, and the columns of a record when one matched (nulls otherwise). */
type WithEpochs<R> = Epochs & { [K in keyof R]: R[K] | null };

interface CountRow extends Epochs {
  ok: boolean[] | null;
  /** BIGINT[]: pg gives its elements as strings (only scalar BIGINTs are parsed to numbers). */
  used: (string | number)[] | null;
}

const epochsOf = (row: Epochs): Epochs => ({ auth: row.auth, contacts: row.contacts });

/** The record part of a withEpochs() row: undefined when none matched. */
function recordOf<R extends object>(row: WithEpochs<R>, key: keyof R): R | undefined {
  if (row[key] === null) return undefined;
  const { auth: _a, contacts: _c, ...record } = row as Epochs & R & { month_calls?: unknown };
  delete (record as { month_calls?: unknown }).month_calls;
  return record as unknown as R;
}

export class PgMetering implements MeteringStore, ContactsStore {
  constructor(
    private readonly pool: pg.Pool,
    private readonly timeoutMs = QUERY_TIMEOUT_MS,
  ) {}

  async tokenByHash(hash: string, month?: string): Promise<TokenRead> {
    const { rows } = await this.query<WithEpochs<TokenRecord> & { month_calls: number | null }>(
      'cnpj_access_token',
      BY_HASH,
      [hash, month ?? ''],
    );
    const row = rows[0];
    return { epochs: epochsOf(row), record: recordOf(row, 'token_id'), monthCalls: Number(row.month_calls ?? 0) };
  }

  async tokensById(ids: readonly number[]): Promise<{ epochs: Epochs; records: TokenRecord[] }> {
    const { rows } = await this.query<WithEpochs<TokenRecord>>('cnpj_access_tokens', BY_IDS, [ids]);
    return { epochs: epochsOf(rows[0]), records: rows.flatMap((r) => recordOf(r, 'token_id') ?? []) };
  }

  async accounts(ids: readonly number[]): Promise<{ epochs: Epochs; records: AccountRecord[] }> {
    const { rows } = await this.query<WithEpochs<AccountRecord>>('cnpj_access_accounts', ACCOUNTS, [ids]);
    return { epochs: epochsOf(rows[0]), records: rows.flatMap((r) => recordOf(r, 'account_id') ?? []) };
  }

  async accountWithUsage(id: number, month: string): Promise<AccountRead> {
    const { rows } = await this.query<WithEpochs<AccountRecord> & { month_calls: number | null }>(
      'cnpj_access_account_usage',
      ACCOUNT_USAGE,
      [id, month],
    );
    const row = rows[0];
    return { epochs: epochsOf(row), record: recordOf(row, 'account_id'), monthCalls: Number(row.month_calls ?? 0) };
  }

  async count(b: CountBatch): Promise<Counted> {
    const { rows } = await this.query<CountRow>('cnpj_count_calls', COUNT, [
      b.accounts,
      b.tokens,
      b.calls,
      b.limits,
      b.epoch,
      b.month,
      b.day,
      b.touch,
      b.at.toISOString(),
      b.touchBefore.toISOString(),
    ]);
    const row = rows[0];
    const fit = row.ok === null || row.used === null ? null : { ok: row.ok, used: row.used.map(Number) };
    return { epochs: epochsOf(row), fit };
  }

  /** Every row whatever `max`: a lookup cannot wait on the network, so there is no per-lookup read. */
  async snapshot(): Promise<{ epoch: number; rows: ContactRow[] | null }> {
    const { rows } = await this.query<{ epoch: number; rows: ContactRow[] | null }>('cnpj_contacts', CONTACTS, []);
    return { epoch: rows[0].epoch, rows: rows[0].rows ?? [] };
  }

  /** A named (prepared once per connection) query; an unreachable database is DatabaseUnavailable. */
  private query<R extends pg.QueryResultRow>(
    name: string,
    text: string,
    values: unknown[],
  ): Promise<pg.QueryResult<R>> {
    return this.pool
      .query<R>({ name, text, values, query_timeout: this.timeoutMs } as pg.QueryConfig)
      .catch((err: unknown) => {
        throw isDatabaseUnavailable(err) ? new DatabaseUnavailable(err) : err;
      });
  }
}
