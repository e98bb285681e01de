// The states an account says it is registered to collect in (its "nexus list"), as it set them.
// Nothing here is computed: nexus health reads the list to mark rows as registered, and order tax
// on every checkout to decide has_nexus, so each account's list is also kept in memory once read
// (one process owns the store file, and every change goes through replace()).
import type { Database } from './database.ts'

const SCHEMA = `CREATE TABLE IF NOT EXISTS nexus_registrations (
  account_id VARCHAR NOT NULL, state VARCHAR NOT NULL, registered_since DATE, updated_at TIMESTAMP NOT NULL,
  PRIMARY KEY (account_id, state))`

export type Registration = { state: string; registeredSince: string | null; updatedAt: string }

export class NexusRegistrations {
  readonly #lists = new Map<string, Promise<readonly Registration[]>>()

  private constructor(private readonly db: Database) {}

  /** The registrations over `db`, creating the table if it is missing. */
  static async of(db: Database): Promise<NexusRegistrations> {
    await db.run(SCHEMA)
    return new NexusRegistrations(db)
  }

  /** The account's registered states, in code order. */
  list(accountId: string): Promise<readonly Registration[]> {
    let list = this.#lists.get(accountId)
    if (!list) {
      list = this.#read(accountId)
      list.catch(() => this.#lists.delete(accountId))
      this.#lists.set(accountId, list)
    }
    return list
  }

  async #read(accountId: string): Promise<Registration[]> {
    const rows = await this.db.rows(
      `SELECT state, registered_since::VARCHAR AS since, strftime(updated_at, '%Y-%m-%dT%H:%M:%S.%gZ') AS updated_at
       FROM nexus_registrations WHERE account_id = ? ORDER BY state`,
      [accountId],
    )
    return rows.map((row) => ({ state: String(row.state), registeredSince: row.since === null ? null : String(row.since), updatedAt: String(row.updated_at) }))
  }

  /** Replaces the whole list in one transaction. */
  async replace(accountId: string, regions: { state: string; registeredSince: string | null }[], now: number): Promise<readonly Registration[]> {
    const stamp = new Date(now).toISOString()
    this.#lists.delete(accountId)
    try {
      await this.db.transaction(async (tx) => {
        await tx.run('DELETE FROM nexus_registrations WHERE account_id = ?', [accountId])
        for (const region of regions) {
          await tx.run('INSERT INTO nexus_registrations VALUES (?, ?, ?::DATE, ?::TIMESTAMP)', [accountId, region.state, region.registeredSince, stamp])
        }
      })
    } finally {
      // A read that started while the transaction ran may hold the old list.
      this.#lists.delete(accountId)
    }
    return this.list(accountId)
  }
}
