import { sql, type Kysely } from 'kysely';

// The API's counting batch on PostgreSQL as ONE round trip (docs/quotas-and-tokens.md, fleet mode):
// one call of count_calls() per group-commit batch of a node, in its own implicit transaction.
// It does what app.db's counting transaction (metering-sqlite.ts, MonthTally) does under the
// file's write lock, with a per-account transaction lock instead:
// - auth_epoch is compared with the node's: when it moved, nothing is written and the epochs come
//   back (no ok/used arrays); the node reloads the token rows, decides the calls again and resends.
// - The accounts of the batch are locked in ascending id order (the same advisory key as
//   lockFor(tx, 'usage_monthly', id)), so two nodes' batches never wait on each other in a cycle;
//   the counts are read after the locks, so they include every batch committed before.
// - Each call is counted only if all of its calls fit under its limit (a refused batch lookup
//   counts nothing), in the order given; one additive write per account, the daily rows per
//   token (the Consulta page's, token 0, per account), last_used_at for the tokens the node asks
//   to stamp (at most once a minute each) among those that had a call counted.
// - synchronous_commit is on for this transaction whatever the server's default: the node
//   answers only once the statement returned, i.e. after the commit is durable.
// Returns the epochs, then per call: counted or not, and the account's calls after it.
const COUNT_CALLS = sql`CREATE FUNCTION count_calls(
    p_accounts BIGINT[], p_tokens BIGINT[], p_calls BIGINT[], p_limits BIGINT[],
    p_auth_epoch BIGINT, p_month TEXT, p_day TEXT,
    p_touch BIGINT[], p_touch_at TEXT, p_touch_before TEXT)
  RETURNS TABLE (auth BIGINT, contacts BIGINT, ok BOOLEAN[], used BIGINT[])
  LANGUAGE plpgsql AS $$
DECLARE
  v_auth BIGINT;
  v_contacts BIGINT;
  v_ids BIGINT[];
  v_used BIGINT[];
  v_added BIGINT[];
  v_ok BOOLEAN[] := '{}';
  v_after BIGINT[] := '{}';
  v_id BIGINT;
  k INT;
  c BIGINT;
BEGIN
  PERFORM set_config('synchronous_commit', 'on', true);
  SELECT n INTO v_auth FROM auth_epoch WHERE id = 1;
  SELECT n INTO v_contacts FROM contacts_epoch WHERE id = 1;
  IF v_auth IS DISTINCT FROM p_auth_epoch THEN
    RETURN QUERY SELECT v_auth, v_contacts, NULL::BOOLEAN[], NULL::BIGINT[];
    RETURN;
  END IF;
  SELECT array_agg(x ORDER BY x) INTO v_ids FROM (SELECT DISTINCT unnest(p_accounts) AS x) s;
  FOREACH v_id IN ARRAY v_ids LOOP
    PERFORM pg_advisory_xact_lock(hashtextextended('usage_monthly' || chr(31) || v_id::text, 0));
  END LOOP;
  SELECT array_agg(coalesce(u.calls, 0) ORDER BY i.x) INTO v_used
    FROM unnest(v_ids) AS i (x)
    LEFT JOIN usage_monthly u ON u.account_id = i.x AND u.month = p_month;
  v_added := array_fill(0::BIGINT, ARRAY[cardinality(v_ids)]);
  FOR j IN 1 .. cardinality(p_accounts) LOOP
    k := array_position(v_ids, p_accounts[j]);
    c := v_used[k] + p_calls[j];
    IF c <= p_limits[j] THEN
      v_used[k] := c;
      v_added[k] := v_added[k] + p_calls[j];
      v_ok := v_ok || true;
    ELSE
      v_ok := v_ok || false;
    END IF;
    v_after := v_after || v_used[k];
  END LOOP;
  INSERT INTO usage_monthly (account_id, month, calls)
    SELECT a, p_month, n FROM unnest(v_ids, v_added) AS t (a, n) WHERE n > 0
    ON CONFLICT (account_id, month) DO UPDATE SET calls = usage_monthly.calls + excluded.calls;
  INSERT INTO usage_daily (token_id, day, calls)
    SELECT t, p_day, sum(n) FROM unnest(p_tokens, p_calls, v_ok) AS b (t, n, granted)
    WHERE granted AND t <> 0 GROUP BY t ORDER BY t
    ON CONFLICT (token_id, day) DO UPDATE SET calls = usage_daily.calls + excluded.calls;
  INSERT INTO usage_daily_web (account_id, day, calls)
    SELECT a, p_day, sum(n) FROM unnest(p_accounts, p_tokens, p_calls, v_ok) AS b (a, t, n, granted)
    WHERE granted AND t = 0 GROUP BY a ORDER BY a
    ON CONFLICT (account_id, day) DO UPDATE SET calls = usage_daily_web.calls + excluded.calls;
  IF cardinality(p_touch) > 0 THEN
    UPDATE api_tokens SET last_used_at = p_touch_at
      WHERE id = ANY (p_touch)
        AND id IN (SELECT t FROM unnest(p_tokens, v_ok) AS b (t, granted) WHERE granted)
        AND (last_used_at IS NULL OR last_used_at <= p_touch_before);
  END IF;
  RETURN QUERY SELECT v_auth, v_contacts, v_ok, v_after;
END $$`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await COUNT_CALLS.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP FUNCTION IF EXISTS count_calls(BIGINT[], BIGINT[], BIGINT[], BIGINT[], BIGINT, TEXT, TEXT, BIGINT[], TEXT, TEXT)`.execute(
    db,
  );
}
