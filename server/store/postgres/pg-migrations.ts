// The PostgreSQL store's schema, as numbered migrations kept here and applied at start-up by every
// node: in one transaction under an advisory lock, so nodes starting together apply each once
// (the others wait on the lock, then find it applied). A migration is never edited once released;
// a change is a new one at the end.
import type { PgDatabase } from './pg-database.ts'

export type Migration = { id: number; name: string; sql: string }

export const MIGRATIONS: readonly Migration[] = [
  {
    id: 1,
    name: 'accounts, keys, usage, transactions, nexus registrations, nodes',
    sql: `
      -- Every change to an account or a key takes the next number, so a node catches up by
      -- reading what changed after the last number it saw (pg-account-table.ts).
      CREATE SEQUENCE account_changes;
      CREATE TABLE accounts (
        id text PRIMARY KEY, name text NOT NULL, tier text NOT NULL,
        created_at text NOT NULL, trial_ends_at text,
        change_seq bigint NOT NULL DEFAULT nextval('account_changes'));
      -- key_hash is the hex sha256 of the key; the key itself is never stored.
      CREATE TABLE api_keys (
        id text PRIMARY KEY, account_id text NOT NULL REFERENCES accounts (id), key_hash text NOT NULL UNIQUE,
        prefix text NOT NULL, created_at text NOT NULL, revoked_at text,
        change_seq bigint NOT NULL DEFAULT nextval('account_changes'));
      CREATE INDEX api_keys_changes ON api_keys (change_seq);
      CREATE INDEX accounts_changes ON accounts (change_seq);
      CREATE TABLE usage (
        account_id text NOT NULL, month text NOT NULL, lookups bigint NOT NULL,
        PRIMARY KEY (account_id, month));
      -- Money in units of 1/10,000 dollar, negative for refunds (sale/money.ts). The key's
      -- text compares byte by byte (COLLATE "C"), whatever the database's locale: cheaper index
      -- upkeep on bulk inserts, and ids listed in the order the DuckDB store lists them.
      CREATE TABLE transactions (
        account_id text COLLATE "C" NOT NULL, provider text COLLATE "C" NOT NULL, transaction_id text COLLATE "C" NOT NULL,
        kind text COLLATE "C" NOT NULL CHECK (kind IN ('order', 'refund')),
        transaction_date date NOT NULL, transaction_at timestamp(3) NOT NULL,
        to_country text NOT NULL, to_zip text NOT NULL, to_state text NOT NULL, to_city text, to_street text,
        from_country text, from_zip text, from_state text, from_city text, from_street text,
        amount bigint NOT NULL, shipping bigint NOT NULL, sales_tax bigint NOT NULL,
        customer_id text, exemption_type text, marketplace boolean NOT NULL,
        transaction_reference_id text, line_items text,
        source text NOT NULL, created_at timestamp(3) NOT NULL, updated_at timestamp(3) NOT NULL,
        PRIMARY KEY (account_id, provider, transaction_id, kind));
      CREATE INDEX transactions_listing ON transactions (account_id, kind, provider, transaction_date, transaction_id);
      CREATE TABLE nexus_registrations (
        account_id text NOT NULL, state text NOT NULL, registered_since date, updated_at timestamp(3) NOT NULL,
        PRIMARY KEY (account_id, state));
      -- The server nodes alive on this database: each writes seen_at on a timer (pg-nodes.ts).
      CREATE TABLE nodes (
        id text PRIMARY KEY, host text NOT NULL, pid integer NOT NULL,
        started_at timestamptz NOT NULL, seen_at timestamptz NOT NULL);
    `,
  },
  {
    id: 2,
    name: 'daily transaction totals for nexus health, kept by triggers',
    sql: `
      -- Per account, day, state, kind, exemption ('' for none) and marketplace flag: the amount
      -- total and count of the stored transactions. Nexus health sums these (a few rows per day
      -- and state) instead of every transaction. Statement-level triggers keep them exact
      -- whatever writes the transactions (orders, backfill, updates, deletes), in the same
      -- transaction; rows are added in key order so concurrent writers lock them alike.
      CREATE TABLE transaction_totals (
        account_id text COLLATE "C" NOT NULL, transaction_date date NOT NULL, to_state text COLLATE "C" NOT NULL, kind text COLLATE "C" NOT NULL,
        exemption text COLLATE "C" NOT NULL, marketplace boolean NOT NULL, total bigint NOT NULL, n bigint NOT NULL,
        PRIMARY KEY (account_id, transaction_date, to_state, kind, exemption, marketplace));
      CREATE FUNCTION transaction_totals_add() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        INSERT INTO transaction_totals AS t
        SELECT account_id, transaction_date, to_state, kind, coalesce(exemption_type, ''), marketplace, sum(amount), count(*)
        FROM added GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6
        ON CONFLICT (account_id, transaction_date, to_state, kind, exemption, marketplace)
        DO UPDATE SET total = t.total + excluded.total, n = t.n + excluded.n;
        RETURN NULL;
      END $fn$;
      CREATE FUNCTION transaction_totals_remove() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        UPDATE transaction_totals AS t SET total = t.total - r.total, n = t.n - r.n
        FROM (SELECT account_id, transaction_date, to_state, kind, coalesce(exemption_type, '') AS exemption, marketplace, sum(amount) AS total, count(*) AS n
              FROM removed GROUP BY 1, 2, 3, 4, 5, 6) AS r
        WHERE (t.account_id, t.transaction_date, t.to_state, t.kind, t.exemption, t.marketplace)
            = (r.account_id, r.transaction_date, r.to_state, r.kind, r.exemption, r.marketplace);
        RETURN NULL;
      END $fn$;
      CREATE FUNCTION transaction_totals_replace() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        UPDATE transaction_totals AS t SET total = t.total - r.total, n = t.n - r.n
        FROM (SELECT account_id, transaction_date, to_state, kind, coalesce(exemption_type, '') AS exemption, marketplace, sum(amount) AS total, count(*) AS n
              FROM removed GROUP BY 1, 2, 3, 4, 5, 6) AS r
        WHERE (t.account_id, t.transaction_date, t.to_state, t.kind, t.exemption, t.marketplace)
            = (r.account_id, r.transaction_date, r.to_state, r.kind, r.exemption, r.marketplace);
        INSERT INTO transaction_totals AS t
        SELECT account_id, transaction_date, to_state, kind, coalesce(exemption_type, ''), marketplace, sum(amount), count(*)
        FROM added GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6
        ON CONFLICT (account_id, transaction_date, to_state, kind, exemption, marketplace)
        DO UPDATE SET total = t.total + excluded.total, n = t.n + excluded.n;
        RETURN NULL;
      END $fn$;
      CREATE TRIGGER transaction_totals_insert AFTER INSERT ON transactions
        REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION transaction_totals_add();
      CREATE TRIGGER transaction_totals_delete AFTER DELETE ON transactions
        REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION transaction_totals_remove();
      CREATE TRIGGER transaction_totals_update AFTER UPDATE ON transactions
        REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION transaction_totals_replace();
      INSERT INTO transaction_totals
      SELECT account_id, transaction_date, to_state, kind, coalesce(exemption_type, ''), marketplace, sum(amount), count(*)
      FROM transactions GROUP BY 1, 2, 3, 4, 5, 6;
    `,
  },
  {
    id: 3,
    name: 'customers',
    sql: `
      -- TaxJar's customers per account; exempt_regions is a JSON list of state codes.
      CREATE TABLE customers (
        account_id text COLLATE "C" NOT NULL, customer_id text COLLATE "C" NOT NULL, exemption_type text NOT NULL,
        name text NOT NULL, exempt_regions text NOT NULL,
        country text, state text, zip text, city text, street text,
        created_at timestamp(3) NOT NULL, updated_at timestamp(3) NOT NULL,
        PRIMARY KEY (account_id, customer_id));
    `,
  },
  {
    id: 4,
    name: 'transactions keyed in the listing order',
    sql: `
      -- The key's columns in the order of the listing index's first three (account, kind,
      -- provider), then the id. A lookup by key then always costs less by the key's index than by
      -- the listing index, whatever the statistics say. In the order of migration 1, with
      -- statistics from before a large backfill, the planner could take the listing index and walk
      -- every row of the account for each key: 1.9 s for a batch of 20 orders at 1M rows.
      ALTER TABLE transactions DROP CONSTRAINT transactions_pkey,
        ADD CONSTRAINT transactions_pkey PRIMARY KEY (account_id, kind, provider, transaction_id);
    `,
  },
  {
    id: 5,
    name: 'webhook endpoints, deliveries and announcements',
    sql: `
      -- Times are ISO 8601 UTC text of one length (server/store/webhooks.ts), as in DuckDB. The
      -- secret signs deliveries, so it is kept as given.
      CREATE TABLE webhooks (
        id text PRIMARY KEY, account_id text NOT NULL, url text NOT NULL, secret text NOT NULL,
        created_at text NOT NULL, failing_since text, disabled_at text, disabled_reason text);
      CREATE INDEX webhooks_account ON webhooks (account_id);
      CREATE TABLE webhook_deliveries (
        id text PRIMARY KEY, webhook_id text NOT NULL, account_id text NOT NULL, snapshot text NOT NULL,
        change_count bigint NOT NULL, body text NOT NULL, status text NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
        attempts bigint NOT NULL, created_at text NOT NULL, next_attempt_at text, claimed_until text, last_attempt_at text,
        last_status bigint, last_error text, delivered_at text);
      CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at, id) WHERE status = 'pending';
      CREATE INDEX webhook_deliveries_listing ON webhook_deliveries (webhook_id, created_at);
      CREATE TABLE webhook_announcements (snapshot text PRIMARY KEY, announced_at text NOT NULL, change_count bigint NOT NULL);
      CREATE TABLE webhook_announced_changes (identity text PRIMARY KEY, snapshot text NOT NULL);
    `,
  },
  {
    id: 6,
    name: 'webhook events, deliveries asked for, every attempt, secret rotation overlap',
    sql: `
      -- The secret a rotation replaced signs beside the new one until previous_secret_expires_at.
      ALTER TABLE webhooks ADD COLUMN previous_secret text, ADD COLUMN previous_secret_expires_at text;
      -- event_id is shared by the deliveries of one event; on_request marks a ping or a redelivery
      -- (one attempt, never retried, not counted against the endpoint); redelivery_of the delivery
      -- a redelivery sends again.
      ALTER TABLE webhook_deliveries ADD COLUMN event_id text, ADD COLUMN event_type text, ADD COLUMN on_request boolean,
        ADD COLUMN redelivery_of text;
      CREATE TABLE webhook_attempts (
        delivery_id text NOT NULL, attempt bigint NOT NULL, started_at text NOT NULL, status bigint,
        duration_ms bigint, error text, PRIMARY KEY (delivery_id, attempt));
      -- Deliveries made before: one event per snapshot, and their last attempt the one known.
      INSERT INTO webhook_attempts (delivery_id, attempt, started_at, status, duration_ms, error)
        SELECT id, attempts, last_attempt_at, last_status, NULL, last_error FROM webhook_deliveries
        WHERE last_attempt_at IS NOT NULL AND (last_status IS NOT NULL OR last_error IS NOT NULL);
      UPDATE webhook_deliveries SET event_id = 'evt_' || substr(md5(snapshot), 1, 24), event_type = 'rate_changes.announced', on_request = false;
      ALTER TABLE webhook_deliveries ALTER COLUMN event_id SET NOT NULL, ALTER COLUMN event_type SET NOT NULL,
        ALTER COLUMN on_request SET NOT NULL, ADD CONSTRAINT webhook_deliveries_event_type CHECK (event_type IN ('rate_changes.announced', 'ping'));
    `,
  },
  {
    id: 7,
    name: 'transactions indexed for returns and change impact',
    sql: `
      -- A return and a change impact read one account's transactions in one state over a period
      -- (store/return-groups.ts), by neither the key's nor the listing index's leading columns: each
      -- read every row of the account, or of the table. This index's keys repeat (one per state,
      -- account and day), so it keeps each once with its rows (deduplicated), which keeps it small; a
      -- covering one cannot be (docs/operations.md says why it is not). The state leads: led by the
      -- account, this small index was what the planner took for a lookup by key with statistics from
      -- before a large backfill, walking the account (migration 4's trap). The rows a return reads
      -- one by one (a product code in their line items, by the statements' own test) have an index
      -- of their own, so finding those few reads none of the others.
      CREATE INDEX transactions_returns ON transactions (to_state, account_id, transaction_date);
      CREATE INDEX transactions_returns_itemized ON transactions (to_state, account_id, transaction_date)
        WHERE coalesce(line_items LIKE '%"product_tax_code":"%', false);
    `,
  },
]

/** Any constant: the lock the migrating node holds, which other nodes wait on. */
const MIGRATION_LOCK = 7_463_771_018

/** Applies the migrations this database lacks; returns the ids applied by this call. */
export async function migrate(db: PgDatabase, migrations: readonly Migration[] = MIGRATIONS): Promise<number[]> {
  return db.transaction(async (tx) => {
    await tx.run('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK])
    await tx.run(`CREATE TABLE IF NOT EXISTS schema_migrations (
      id integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`)
    const done = new Set((await tx.rows('SELECT id FROM schema_migrations')).map((row) => Number(row.id)))
    const newer = [...done].filter((id) => !migrations.some((m) => m.id === id))
    if (newer.length) throw new Error(`the database has migrations this server does not know (${newer.join(', ')}): it was migrated by a newer version`)
    const applied: number[] = []
    for (const migration of migrations) {
      if (done.has(migration.id)) continue
      await tx.run(migration.sql)
      await tx.run('INSERT INTO schema_migrations (id, name) VALUES ($1, $2)', [migration.id, migration.name])
      applied.push(migration.id)
    }
    return applied
  })
}
