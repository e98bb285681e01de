// Accounts and keys in PostgreSQL. Every insert and revocation takes the next number of the
// account_changes sequence and notifies ACCOUNTS_CHANNEL in its transaction (delivered at
// commit), so other nodes read exactly what changed (changesSince) as soon as they hear of it.
// These writes (admin commands: rare) take one lock in turn, so their numbers are taken in the
// order they commit and a reader that has seen number n has seen every change before it.
import { accountOf, keyRecordOf, type AccountTable } from '../store-engine.ts'
import { ACCOUNTS_CHANNEL } from './pg-change-feed.ts'
import type { PgDatabase, PgStatements } from './pg-database.ts'

const KEY_COLUMNS = 'id, account_id, key_hash, prefix, created_at, revoked_at'

/** Any constant: the lock account writes take in turn. */
const ACCOUNT_WRITES_LOCK = 7_463_771_019

/** Runs an account write: in turn with the others, and heard of by every node once committed. */
const accountWrite = <T>(db: PgDatabase, work: (tx: PgStatements) => Promise<T>) =>
  db.transaction(async (tx) => {
    await tx.run('SELECT pg_advisory_xact_lock($1)', [ACCOUNT_WRITES_LOCK])
    const result = await work(tx)
    await tx.run('SELECT pg_notify($1, $2)', [ACCOUNTS_CHANNEL, ''])
    return result
  })

export function pgAccountTable(db: PgDatabase): AccountTable {
  return {
    async changesSince(mark) {
      // One snapshot for both reads, so a key is never read without its account.
      return db.transaction(async (tx) => {
        await tx.run('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ')
        const accountRows = await tx.rows('SELECT id, name, tier, created_at, trial_ends_at, change_seq FROM accounts WHERE change_seq > $1', [mark])
        const keyRows = await tx.rows(`SELECT ${KEY_COLUMNS}, change_seq FROM api_keys WHERE change_seq > $1`, [mark])
        let next = mark
        for (const row of [...accountRows, ...keyRows]) next = Math.max(next, Number(row.change_seq))
        return {
          accounts: accountRows.map(accountOf),
          keys: keyRows.map(keyRecordOf),
          mark: next,
        }
      })
    },
    insertAccount: (account, key) =>
      accountWrite(db, async (tx) => {
        await tx.run('INSERT INTO accounts (id, name, tier, created_at, trial_ends_at) VALUES ($1, $2, $3, $4, $5)', [account.id, account.name, account.tier, account.createdAt, account.trialEndsAt])
        await tx.run('INSERT INTO api_keys (id, account_id, key_hash, prefix, created_at) VALUES ($1, $2, $3, $4, $5)', [key.id, key.accountId, key.keyHash, key.prefix, key.createdAt])
      }),
    insertKey: (key) =>
      accountWrite(db, async (tx) => {
        await tx.run('INSERT INTO api_keys (id, account_id, key_hash, prefix, created_at) VALUES ($1, $2, $3, $4, $5)', [key.id, key.accountId, key.keyHash, key.prefix, key.createdAt])
      }),
    revokeKey: (keyId, revokedAt) =>
      accountWrite(db, async (tx) => {
        const rows = await tx.rows(
          `UPDATE api_keys SET revoked_at = coalesce(revoked_at, $1), change_seq = nextval('account_changes') WHERE id = $2 RETURNING ${KEY_COLUMNS}`,
          [revokedAt, keyId],
        )
        return rows.length ? keyRecordOf(rows[0]) : null
      }),
  }
}
