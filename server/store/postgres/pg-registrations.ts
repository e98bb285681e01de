// The nexus list of each account in PostgreSQL (the DuckDB twin is in nexus-registrations.ts). A
// replacement notifies REGISTRATIONS_CHANNEL with the account id in its transaction, so every node
// forgets the list it kept of that account once the change is committed.
import type { Registration, RegistrationTable } from '../nexus-registrations.ts'
import { REGISTRATIONS_CHANNEL } from './pg-change-feed.ts'
import type { PgDatabase } from './pg-database.ts'

export function pgRegistrationTable(db: PgDatabase): RegistrationTable {
  return {
    async read(accountId): Promise<Registration[]> {
      const rows = await db.rows(
        `SELECT state, registered_since::text AS since, to_char(updated_at, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at
         FROM nexus_registrations WHERE account_id = $1 ORDER BY state`,
        [accountId],
      )
      return rows.map((row) => ({ state: String(row.state), registeredSince: row.since === null ? null : String(row.since), updatedAt: String(row.updated_at) }))
    },
    replace: (accountId, regions, stamp) =>
      db.transaction(async (tx) => {
        await tx.run('DELETE FROM nexus_registrations WHERE account_id = $1', [accountId])
        await tx.run(
          `INSERT INTO nexus_registrations (account_id, state, registered_since, updated_at)
           SELECT $1, state, since::date, $4::timestamp FROM unnest($2::text[], $3::text[]) AS r (state, since)`,
          [accountId, regions.map((r) => r.state), regions.map((r) => r.registeredSince), stamp],
        )
        await tx.run('SELECT pg_notify($1, $2)', [REGISTRATIONS_CHANNEL, accountId])
      }),
  }
}
