// The store as the server uses it: the DuckDB file with accounts and usage loaded in memory.
// The server opens it in the background after it listens (public routes need no store), so the
// request path sees it through a gate: one shared promise that key routes await, and that
// turns a failure to open into 503 SERVICE_UNAVAILABLE.
import { HttpError } from '../base/errors.ts'
import { Accounts } from './accounts.ts'
import type { Database } from './database.ts'
import { UsageCounter } from './usage.ts'

/** What the request path needs from the store: accounts and usage in memory, and the database for routes that keep their own tables. */
export type StoreParts = { accounts: Accounts; usage: UsageCounter; db: Database }

export type OpenedStore = StoreParts

/** Seconds a client is told to wait before retrying a request refused for want of the store. */
export const STORE_RETRY_AFTER_SECONDS = 30

export const STORE_UNAVAILABLE_MESSAGE =
  'The account store is unavailable, so API keys cannot be checked right now; retry later. Public routes still answer.'

/**
 * Opens the store file and loads accounts and usage. database.ts (and with it the DuckDB native
 * module) is imported here, on first use, never while the server starts.
 */
export async function openStore(file: string, options: { memoryLimit?: string } = {}): Promise<OpenedStore> {
  const { Database } = await import('./database.ts')
  const db = await Database.open(file, options)
  try {
    return { db, accounts: await Accounts.load(db), usage: await UsageCounter.load(db) }
  } catch (error) {
    await db.close().catch(() => undefined)
    throw error
  }
}

export type StoreGate = {
  /** Settles once: the parts when the store is open, or a 503 HttpError when it could not be opened. */
  readonly ready: Promise<StoreParts>
  /** the parts once open, so requests after that need not wait a turn for `ready` */
  readonly opened: StoreParts | null
}

/** The gate over a store being opened; a gate over an already open store is `gateStore(Promise.resolve(parts))`. */
export function gateStore(opening: Promise<StoreParts>): StoreGate {
  const ready = opening.then(
    (parts) => parts,
    () => {
      throw new HttpError('SERVICE_UNAVAILABLE', STORE_UNAVAILABLE_MESSAGE, { retry_after: STORE_RETRY_AFTER_SECONDS }, {
        'Retry-After': String(STORE_RETRY_AFTER_SECONDS),
      })
    },
  )
  const gate: { ready: Promise<StoreParts>; opened: StoreParts | null } = { ready, opened: null }
  // Rejection is an answer for the requests that await it, not an unhandled error of the process.
  ready.then((parts) => (gate.opened = parts)).catch(() => undefined)
  return gate
}
