// Lookup counts in PostgreSQL, added to by every node (usage.ts flushes into `add`). The rows of
// one flush are written in key order, so two nodes flushing the same accounts lock them in the
// same order and never deadlock.
import type { UsageRow, UsageTable } from '../store-engine.ts'
import type { PgDatabase, PgRow } from './pg-database.ts'

const rowOf = (row: PgRow): UsageRow => ({ accountId: String(row.account_id), month: String(row.month), lookups: Number(row.lookups) })

export function pgUsageTable(db: PgDatabase): UsageTable {
  return {
    all: async () => (await db.rows('SELECT account_id, month, lookups FROM usage')).map(rowOf),
    add: (changes) => {
      const sorted = [...changes].sort((a, b) => a.accountId.localeCompare(b.accountId) || a.month.localeCompare(b.month))
      const accounts = [...new Set(sorted.map((change) => change.accountId))]
      return db.transaction(async (tx) => {
        await tx.run(
          `INSERT INTO usage (account_id, month, lookups)
           SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[])
           ON CONFLICT (account_id, month) DO UPDATE SET lookups = usage.lookups + excluded.lookups`,
          [sorted.map((c) => c.accountId), sorted.map((c) => c.month), sorted.map((c) => c.lookups)],
        )
        return (await tx.rows('SELECT account_id, month, lookups FROM usage WHERE account_id = ANY($1::text[])', [accounts])).map(rowOf)
      })
    },
  }
}
