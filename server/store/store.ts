// The store as the server uses it: an engine (store-engine.ts: the DuckDB file, or PostgreSQL)
// with accounts and usage loaded in memory. The server opens it in the background after it
// listens (public routes need no store), so the request path sees it through a gate
// (store-supervisor.ts): key routes wait for the first attempt to open it, and are refused with
// 503 SERVICE_UNAVAILABLE while it cannot be opened.
import type { Logger } from '../base/logger.ts'
import type { ServerMetrics } from '../base/metrics.ts'
import { onFirstUse } from '../base/on-first-use.ts'
import { Accounts } from './accounts.ts'
import type { CustomerStore } from './customers.ts'
import type { WriteGuard } from './database.ts'
import type { FileIdentity } from './file-identity.ts'
import { NexusRegistrations } from './nexus-registrations.ts'
import type { StoreEngine } from './store-engine.ts'
import type { StoreHealth } from './store-health.ts'
import type { StoreLocation } from './store-location.ts'
import type { TransactionStore } from './transaction-store.ts'
import { timedEngine } from './timed-engine.ts'
import { UsageCounter } from './usage.ts'
import type { WebhookTable } from './webhooks.ts'

/** What the request path needs from the store: accounts and usage in memory, and the engine's tables for routes that keep their own. */
export type StoreParts = {
  accounts: Accounts
  usage: UsageCounter
  transactions: TransactionStore
  registrations: NexusRegistrations
  customers: CustomerStore
  webhooks: WebhookTable
  engine: StoreEngine
}

/**
 * The parts, the identity of the DuckDB file they were opened from, and how to open that file again
 * in place after DuckDB gave up on it (database.ts `reopen`); both null for PostgreSQL, no file.
 */
export type OpenedStore = StoreParts & { identity: FileIdentity | null; reopen: ((ownFile: () => void) => Promise<void>) | null }

export const STORE_UNAVAILABLE_MESSAGE =
  'The account store is unavailable, so API keys cannot be checked right now; retry later. Public routes still answer.'


export type OpenStoreOptions = {
  /** DuckDB's buffer memory (DuckDB syntax, e.g. "256MB") */
  memoryLimit?: string
  /** PostgreSQL: connections this node keeps */
  poolSize?: number
  /** PostgreSQL: how often a node announces itself and re-reads accounts without a notification */
  pollMs?: number
  /** PostgreSQL: the share of an account's quota a node may count unseen by the database */
  unsyncedShare?: number
  /** names this node's connections in PostgreSQL (application_name) */
  nodeName?: string
  /** where the PostgreSQL engine reports lost connections and migrations */
  logger?: Logger
  /** times every store operation when given (TAXATLAS_METRICS_TOKEN set) */
  metrics?: ServerMetrics
  /** a server node (counted among the nodes sharing PostgreSQL), or the admin command (not counted); default node */
  role?: 'node' | 'admin'
  /** DuckDB: whether a missing store file may be created where a store was (store-marker.ts) */
  init?: boolean
  /** DuckDB: watches every write (store-supervisor.ts) */
  guard?: WriteGuard
  /** DuckDB: stamps the marker written beside a new store file */
  now?: number
}

const quiet: Logger = { info: () => {}, warn: () => {}, error: () => {}, request: () => {} }

// Each engine with its client is a chunk of the bundle of its own, loaded by the first opening.
export const loadPostgresEngine = onFirstUse('the PostgreSQL store engine', () => import('./postgres/pg-engine.ts'), ['postgresEngine'])
const loadStoreFile = onFirstUse('the DuckDB store file', () => import('./open-store-file.ts'), ['openStoreFile'])
const loadDuckdbEngine = onFirstUse('the DuckDB store engine', () => import('./duckdb-engine.ts'), ['duckdbEngine'])


/**
 * Opens the engine and loads accounts and usage. The engines' modules (and with them DuckDB's
 * native module or the pg client) are imported here, on first use, never while the server starts.
 * A DuckDB file is opened through open-store-file.ts: never an empty store where one was, unless
 * `init`, and every write watched by `guard`.
 */
export async function openStore(location: StoreLocation, options: OpenStoreOptions = {}): Promise<OpenedStore> {
  const { engine: opened, identity, reopen } = await openEngine(location, options)
  const engine = options.metrics ? timedEngine(opened, (operation, work) => options.metrics!.timeStore(operation, work)) : opened
  try {
    return {
      engine,
      identity,
      reopen,
      accounts: await Accounts.load(engine.accounts),
      usage: await UsageCounter.load(engine.usage, { shared: engine.shared, unsyncedShare: options.unsyncedShare ?? 0.01 }),
      transactions: engine.transactions,
      registrations: new NexusRegistrations(engine.registrations),
      customers: engine.customers,
      webhooks: engine.webhooks,
    }
  } catch (error) {
    await engine.close().catch(() => undefined)
    throw error
  }
}

type OpenedEngine = Pick<OpenedStore, 'engine' | 'identity' | 'reopen'>

async function openEngine(location: StoreLocation, options: OpenStoreOptions): Promise<OpenedEngine> {
  if (location.kind === 'postgres') {
    const { postgresEngine } = await loadPostgresEngine()
    const engine = await postgresEngine(location.url, {
      poolSize: options.poolSize ?? 10,
      pollMs: options.pollMs ?? 5_000,
      nodeName: options.nodeName ?? 'taxatlas',
      logger: options.logger ?? quiet,
      node: options.role !== 'admin',
    })
    return { engine, identity: null, reopen: null }
  }
  const [{ openStoreFile }, { duckdbEngine }] = await Promise.all([loadStoreFile(), loadDuckdbEngine()])
  const { db, identity } = await openStoreFile(location.file, { memoryLimit: options.memoryLimit, init: options.init ?? false, guard: options.guard, now: options.now ?? Date.now() })
  try {
    return { engine: await duckdbEngine(db), identity, reopen: (ownFile) => db.reopen(ownFile) }
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
