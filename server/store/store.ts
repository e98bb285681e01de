// The store as the server uses it: the DuckDB file with accounts and usage loaded in memory.
// The server opens it in the background after it listens (public routes need no store), so the
// request path sees it through a gate (store-supervisor.ts): key routes wait for the first
// attempt to open it, and are refused with 503 SERVICE_UNAVAILABLE while it cannot be opened.
import { HttpError } from '../base/errors.ts'
import { Accounts } from './accounts.ts'
import type { Database, WriteGuard } from './database.ts'
import type { FileIdentity } from './file-identity.ts'
import type { StoreHealth } from './store-health.ts'
import { UsageCounter } from './usage.ts'

/** What the request path needs from the store: accounts and usage in memory, and the database for routes that keep their own tables. */
export type StoreParts = { accounts: Accounts; usage: UsageCounter; db: Database }

/** The parts, and the identity of the file they were opened from. */
export type OpenedStore = StoreParts & { identity: FileIdentity }

/** Seconds a client is told to wait before retrying a request refused for want of the store. */
export const STORE_RETRY_AFTER_SECONDS = 30

export const STORE_UNAVAILABLE_MESSAGE =
  'The account store is unavailable, so API keys cannot be checked right now; retry later. Public routes still answer.'

/**
 * Opens the store file (never creating an empty one where a store was, unless `init`) and loads
 * accounts and usage. database.ts (and with it the DuckDB native module) is imported here, on
 * first use, never while the server starts.
 */
export async function openStore(file: string, options: { memoryLimit?: string; init: boolean; guard?: WriteGuard; now: number }): Promise<OpenedStore> {
  const { openStoreFile } = await import('./open-store-file.ts')
  const { db, identity } = await openStoreFile(file, options)
  try {
    return { db, identity, accounts: await Accounts.load(db), usage: await UsageCounter.load(db) }
  } catch (error) {
    await db.close().catch(() => undefined)
    throw error
  }
}

export type StoreGate = {
  /** the parts when the store is open, or a 503 HttpError when it cannot be opened now */
  readonly ready: Promise<StoreParts>
  /** the parts once open, so requests after that need not wait a turn for `ready` */
  readonly opened: StoreParts | null
  /** the store's state for /healthz */
  health(): StoreHealth
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
  const gate: StoreGate & { opened: StoreParts | null } = {
    ready,
    opened: null,
    health: () => (gate.opened ? { status: 'ok' } : { status: 'opening' }),
  }
  // Rejection is an answer for the requests that await it, not an unhandled error of the process.
  ready.then((parts) => (gate.opened = parts)).catch(() => undefined)
  return gate
}
