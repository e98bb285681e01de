// The nexus list of each account in PostgreSQL (the DuckDB twin is nexus-registrations.ts).
import type { NexusRegistrations, Registration } from '../nexus-registrations.ts'
import type { PgDatabase } from './pg-database.ts'

export function pgRegistrations(db: PgDatabase): NexusRegistrations {
  const list = async (accountId: string): Promise<Registration[]> => {
    const rows = await db.rows(
      `SELECT state, registered_since::text AS since, to_char(updated_at, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at
       FROM nexus_registrations WHERE account_id = $1 ORDER BY state`,
      [accountId],
    )
    return rows.map((row) => ({ state: String(row.state), registeredSince: row.since === null ? null : String(row.since), updatedAt: String(row.updated_at) }))
  }
  return {
    list,
    async replace(accountId, regions, now) {
      await db.transaction(async (tx) => {
        await tx.run('DELETE FROM nexus_registrations WHERE account_id = $1', [accountId])
        await tx.run(
          `INSERT INTO nexus_registrations (account_id, state, registered_since, updated_at)
           SELECT $1, state, since::date, $4::timestamp FROM unnest($2::text[], $3::text[]) AS r (state, since)`,
          [accountId, regions.map((r) => r.state), regions.map((r) => r.registeredSince), new Date(now).toISOString()],
        )
      })
      return list(accountId)
    },
  }
}
