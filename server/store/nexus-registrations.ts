// The states an account says it is registered to collect in (its "nexus list"), as it set them.
// Nothing here is computed: nexus health reads the list to mark rows as registered, and order tax
// on every checkout to decide has_nexus, so each account's list is also kept in memory once read.
// Every change through this node goes through replace(); on a store other nodes share, a list
// another node replaced is forgotten when that node's notification (or the poll behind it)
// arrives (store-engine.ts: watch), and read again on next use. The tables: DuckDB below,
// PostgreSQL in postgres/pg-registrations.ts.
import type { Database } from './database.ts'

const SCHEMA = `CREATE TABLE IF NOT EXISTS nexus_registrations (
  account_id VARCHAR NOT NULL, state VARCHAR NOT NULL, registered_since DATE, updated_at TIMESTAMP NOT NULL,
  PRIMARY KEY (account_id, state))`

export type Registration = { state: string; registeredSince: string | null; updatedAt: string }
export type RegionInput = { state: string; registeredSince: string | null }

/** An engine's table of nexus lists. */
export type RegistrationTable = {
  /** the account's registered states, in code order */
  read(accountId: string): Promise<Registration[]>
  /** replaces the whole list in one transaction */
  replace(accountId: string, regions: RegionInput[], stamp: string): Promise<void>
}

export class NexusRegistrations {
  readonly #lists = new Map<string, Promise<readonly Registration[]>>()

  constructor(private readonly table: RegistrationTable) {}

  /** The account's registered states, in code order. */
  list(accountId: string): Promise<readonly Registration[]> {
    let list = this.#lists.get(accountId)
    if (!list) {
      list = this.table.read(accountId)
      list.catch(() => this.#lists.delete(accountId))
      this.#lists.set(accountId, list)
    }
    return list
  }

  /** Replaces the whole list in one transaction. */
  async replace(accountId: string, regions: RegionInput[], now: number): Promise<readonly Registration[]> {
    this.#lists.delete(accountId)
    try {
      await this.table.replace(accountId, regions, new Date(now).toISOString())
    } finally {
      // A read that started while the transaction ran may hold the old list.
      this.#lists.delete(accountId)
    }
    return this.list(accountId)
  }

  /** Drops what is kept of an account's list (another node changed it), or of every list (null). */
  forget(accountId: string | null): void {
    if (accountId === null) this.#lists.clear()
    else this.#lists.delete(accountId)
  }
}

/** The DuckDB table, created if it is missing. */
export async function duckdbRegistrationTable(db: Database): Promise<RegistrationTable> {
  await db.run(SCHEMA)
  return {
    async read(accountId) {
      const rows = await db.rows(
        `SELECT state, registered_since::VARCHAR AS since, strftime(updated_at, '%Y-%m-%dT%H:%M:%S.%gZ') AS updated_at
         FROM nexus_registrations WHERE account_id = ? ORDER BY state`,
        [accountId],
      )
      return rows.map((row) => ({ state: String(row.state), registeredSince: row.since === null ? null : String(row.since), updatedAt: String(row.updated_at) }))
    },
    replace: (accountId, regions, stamp) =>
      db.transaction(async (tx) => {
        await tx.run('DELETE FROM nexus_registrations WHERE account_id = ?', [accountId])
        for (const region of regions) {
          await tx.run('INSERT INTO nexus_registrations VALUES (?, ?, ?::DATE, ?::TIMESTAMP)', [accountId, region.state, region.registeredSince, stamp])
        }
      }),
  }
}
