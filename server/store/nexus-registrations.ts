// The states an account says it is registered to collect in (its "nexus list"), as it set them,
// and their DuckDB table (PostgreSQL: postgres/pg-registrations.ts). Nothing here is computed:
// nexus health only reads the list to mark rows as registered.
import type { Database } from './database.ts'

const SCHEMA = `CREATE TABLE IF NOT EXISTS nexus_registrations (
  account_id VARCHAR NOT NULL, state VARCHAR NOT NULL, registered_since DATE, updated_at TIMESTAMP NOT NULL,
  PRIMARY KEY (account_id, state))`

export type Registration = { state: string; registeredSince: string | null; updatedAt: string }
export type RegionInput = { state: string; registeredSince: string | null }

export type NexusRegistrations = {
  /** The account's registered states, in code order. */
  list(accountId: string): Promise<Registration[]>
  /** Replaces the whole list in one transaction. */
  replace(accountId: string, regions: RegionInput[], now: number): Promise<Registration[]>
}

export class DuckDBRegistrations implements NexusRegistrations {
  private constructor(private readonly db: Database) {}

  /** The registrations over `db`, creating the table if it is missing. */
  static async of(db: Database): Promise<DuckDBRegistrations> {
    await db.run(SCHEMA)
    return new DuckDBRegistrations(db)
  }

  async list(accountId: string): Promise<Registration[]> {
    const rows = await this.db.rows(
      `SELECT state, registered_since::VARCHAR AS since, strftime(updated_at, '%Y-%m-%dT%H:%M:%S.%gZ') AS updated_at
       FROM nexus_registrations WHERE account_id = ? ORDER BY state`,
      [accountId],
    )
    return rows.map((row) => ({ state: String(row.state), registeredSince: row.since === null ? null : String(row.since), updatedAt: String(row.updated_at) }))
  }

  async replace(accountId: string, regions: RegionInput[], now: number): Promise<Registration[]> {
    const stamp = new Date(now).toISOString()
    await this.db.transaction(async (tx) => {
      await tx.run('DELETE FROM nexus_registrations WHERE account_id = ?', [accountId])
      for (const region of regions) {
        await tx.run('INSERT INTO nexus_registrations VALUES (?, ?, ?::DATE, ?::TIMESTAMP)', [accountId, region.state, region.registeredSince, stamp])
      }
    })
    return this.list(accountId)
  }
}
