// The embedded engine: one DuckDB file (database.ts) that one server process opens. Nothing else
// writes to it while the server runs, so the accounts and counts in memory are the whole truth
// and there are no other nodes to hear from.
import type { Database } from './database.ts'
import { DuckDBCustomerStore } from './customers.ts'
import { duckdbRegistrationTable } from './nexus-registrations.ts'
import { accountOf, keyRecordOf, type AccountTable, type StoreEngine, type UsageTable } from './store-engine.ts'
import { DuckDBTransactionStore } from './transactions.ts'
import { duckdbWebhookTable } from './webhooks.ts'

export async function duckdbEngine(db: Database): Promise<StoreEngine> {
  const [transactions, registrations, customers, webhooks] = await Promise.all([DuckDBTransactionStore.of(db), duckdbRegistrationTable(db), DuckDBCustomerStore.of(db), duckdbWebhookTable(db)])
  return {
    kind: 'duckdb',
    location: db.file,
    shared: false,
    accounts: accountTable(db),
    usage: duckdbUsageTable(db),
    transactions,
    registrations,
    customers,
    webhooks,
    watch: () => () => {},
    liveNodes: () => 1,
    close: () => db.close(),
  }
}

const KEY_COLUMNS = 'id, account_id, key_hash, prefix, created_at, revoked_at'

function accountTable(db: Database): AccountTable {
  return {
    // Only this process writes the file: after the first read, every change is already in memory.
    async changesSince(mark) {
      if (mark > 0) return { accounts: [], keys: [], mark }
      const accounts = (await db.rows('SELECT id, name, tier, created_at, trial_ends_at FROM accounts')).map(accountOf)
      const keys = (await db.rows(`SELECT ${KEY_COLUMNS} FROM api_keys`)).map(keyRecordOf)
      return { accounts, keys, mark: 1 }
    },
    insertAccount: (account, key) =>
      db.transaction(async (tx) => {
        await tx.run('INSERT INTO accounts VALUES (?, ?, ?, ?, ?)', [account.id, account.name, account.tier, account.createdAt, account.trialEndsAt])
        await tx.run('INSERT INTO api_keys VALUES (?, ?, ?, ?, ?, NULL)', [key.id, key.accountId, key.keyHash, key.prefix, key.createdAt])
      }),
    insertKey: (key) => db.run('INSERT INTO api_keys VALUES (?, ?, ?, ?, ?, NULL)', [key.id, key.accountId, key.keyHash, key.prefix, key.createdAt]),
    async revokeKey(keyId, revokedAt) {
      const rows = await db.transaction((tx) => tx.rows(`UPDATE api_keys SET revoked_at = coalesce(revoked_at, ?) WHERE id = ? RETURNING ${KEY_COLUMNS}`, [revokedAt, keyId]))
      return rows.length ? keyRecordOf(rows[0]) : null
    },
  }
}

export function duckdbUsageTable(db: Database): UsageTable {
  return {
    all: async () => (await db.rows('SELECT account_id, month, lookups FROM usage')).map((row) => ({ accountId: String(row.account_id), month: String(row.month), lookups: Number(row.lookups) })),
    async add(changes) {
      await db.transaction(async (tx) => {
        for (const { accountId, month, lookups } of changes) {
          await tx.run(
            `INSERT INTO usage VALUES (?, ?, ?)
             ON CONFLICT (account_id, month) DO UPDATE SET lookups = usage.lookups + excluded.lookups`,
            [accountId, month, lookups],
          )
        }
      })
      return null
    },
  }
}
