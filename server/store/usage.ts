// Lookup counts per account and UTC month. Counting happens in memory on the request path; the
// counts are written to the store every flush interval (TAXATLAS_USAGE_FLUSH_MS, 1 s by default)
// and on shutdown. A flush takes the counts gathered so far and they are durable once its commit
// returns, so a crash loses the counts of up to one interval plus the time of one flush (under
// load, ~1.0-1.5 s with the default interval); while the store refuses writes they stay pending
// in memory and go with the first flush that succeeds (docs/reliability.md).
//
// On a store shared by several nodes (PostgreSQL) a flush adds this node's counts to the
// database's and reads back the totals of every node, and a node may hold only a bounded number
// of lookups per account that the database has not seen: once an account with a quota has
// `unsyncedShare` of its quota (at least 1) unflushed on this node, its next lookup waits for a
// flush. After the database's total crosses the quota, each node lets through at most that many
// more before its flush tells it so: with N nodes, at most N × max(1, ⌊quota × share⌋) lookups
// past the quota (docs/reliability.md). Accounts without a quota never wait.
import type { Logger } from '../base/logger.ts'
import type { UsageRow, UsageTable } from './store-engine.ts'

export type { UsageRow } from './store-engine.ts'

const FAILURE_RELOG_MS = 60_000

// Counts by account, then by month: the request path looks them up with the strings it already
// holds, without building a key per lookup.
type Counts = Map<string, Map<string, number>>

function addTo(counts: Counts, accountId: string, month: string, delta: number): void {
  let months = counts.get(accountId)
  if (months === undefined) counts.set(accountId, (months = new Map()))
  months.set(month, (months.get(month) ?? 0) + delta)
}

function* entriesOf(counts: Counts): Generator<UsageRow> {
  for (const [accountId, months] of counts) for (const [month, lookups] of months) yield { accountId, month, lookups }
}

export type UsageOptions = {
  /** whether other nodes count into the same store (then flushes read their counts back) */
  shared: boolean
  /** share of an account's quota a node may count before the database has seen it (shared stores) */
  unsyncedShare: number
}

export class UsageCounter {
  /** what the request path reads: the database's counts as last read, plus this node's unflushed ones */
  readonly #counts: Counts = new Map()
  readonly #totals = new Map<string, number>()
  /** counted here and not yet in a flush */
  #pending: Counts = new Map()
  /** in the flush under way */
  #inFlight: Counts = new Map()
  /** lookups per account counted here that the database has not confirmed (pending + in flight) */
  readonly #unsynced = new Map<string, number>()
  #flushing: Promise<void> | null = null

  private constructor(
    private readonly table: UsageTable,
    private readonly options: UsageOptions,
  ) {}

  static async load(table: UsageTable, options: UsageOptions = { shared: false, unsyncedShare: 0 }): Promise<UsageCounter> {
    const usage = new UsageCounter(table, options)
    for (const row of await table.all()) usage.#apply(row.accountId, row.month, row.lookups)
    return usage
  }

  used(accountId: string, month: string): number {
    return this.#counts.get(accountId)?.get(month) ?? 0
  }

  /** Every lookup the account ever made (a trial's quota spans its whole trial). */
  usedTotal(accountId: string): number {
    return this.#totals.get(accountId) ?? 0
  }

  /** Counts (or, with a negative delta, uncounts) lookups; persisted by the next flush. */
  add(accountId: string, month: string, delta = 1): void {
    this.#apply(accountId, month, delta)
    addTo(this.#pending, accountId, month, delta)
    if (this.options.shared) this.#unsynced.set(accountId, (this.#unsynced.get(accountId) ?? 0) + delta)
  }

  /**
   * Whether a lookup of this account must wait for a flush before it is admitted: on a shared
   * store, when this node already holds its share of the quota unseen by the database.
   */
  mustSync(accountId: string, quota: number | null): boolean {
    if (!this.options.shared || quota === null) return false
    return (this.#unsynced.get(accountId) ?? 0) >= Math.max(1, Math.floor(quota * this.options.unsyncedShare))
  }

  rows(): UsageRow[] {
    return [...entriesOf(this.#counts)].sort((a, b) => a.accountId.localeCompare(b.accountId) || a.month.localeCompare(b.month))
  }

  /** This node's counts no flush has committed (pending, and in a flush under way). */
  unflushed(): UsageRow[] {
    return [...entriesOf(this.#pending), ...entriesOf(this.#inFlight)].filter((row) => row.lookups !== 0)
  }

  /** Reads every count from the store again (other nodes' included), keeping this node's unflushed ones on top. */
  async reload(): Promise<void> {
    if (!this.options.shared) return
    // Flushed first, so no count of this node is both in what is read and still on top of it.
    await this.flush()
    this.#replace(await this.table.all(), null)
  }

  /**
   * Writes the counts gathered so far, after any flush under way; on failure they stay pending
   * for the next one. On a shared store the totals read back replace the accounts' counts.
   */
  async flush(): Promise<void> {
    while (this.#flushing) await this.#flushing.catch(() => undefined)
    const changes = [...entriesOf(this.#pending)].filter((change) => change.lookups !== 0)
    if (changes.length === 0) {
      // Counts that cancelled out (a lookup counted, then uncounted): nothing to write.
      this.#settle(this.#pending)
      this.#pending = new Map()
      return
    }
    this.#inFlight = this.#pending
    this.#pending = new Map()
    const flushing = this.table.add(changes).then(
      (stored) => {
        const flushed = this.#inFlight
        this.#inFlight = new Map()
        this.#settle(flushed)
        if (stored) this.#replace(stored, new Set(flushed.keys()))
      },
      (error: unknown) => {
        for (const { accountId, month, lookups } of entriesOf(this.#inFlight)) addTo(this.#pending, accountId, month, lookups)
        this.#inFlight = new Map()
        throw error
      },
    )
    this.#flushing = flushing
    try {
      await flushing
    } finally {
      this.#flushing = null
    }
  }

  /**
   * Flushes every `intervalMs` until the returned function is called. A failure is logged when
   * its reason is new, then once a minute while it lasts, not at every interval.
   */
  flushEvery(intervalMs: number, logger: Logger, afterFlush?: () => Promise<void>): () => void {
    let failing: { reason: string; loggedAt: number; failures: number } | null = null
    const timer = setInterval(() => {
      this.flush().then(
        () => {
          afterFlush?.().catch((error: Error) => logger.error('usage_after_flush_failed', { reason: error.message }))
          if (failing) logger.info('usage_flush_resumed', { failures: failing.failures })
          failing = null
        },
        (error: Error) => {
          const now = Date.now()
          if (failing?.reason === error.message && now - failing.loggedAt < FAILURE_RELOG_MS) {
            failing.failures++
            return
          }
          failing = { reason: error.message, loggedAt: now, failures: (failing?.failures ?? 0) + 1 }
          logger.error('usage_flush_failed', { reason: error.message, failures: failing.failures, pending: 'kept in memory for the next flush' })
        },
      )
    }, intervalMs)
    timer.unref()
    return () => clearInterval(timer)
  }

  /** The flushed counts are the database's now: no longer unsynced. */
  #settle(flushed: Counts): void {
    if (!this.options.shared) return
    for (const [accountId, months] of flushed) {
      let delta = 0
      for (const lookups of months.values()) delta += lookups
      const left = (this.#unsynced.get(accountId) ?? 0) - delta
      if (left === 0) this.#unsynced.delete(accountId)
      else this.#unsynced.set(accountId, left)
    }
  }

  /** Puts the stored counts of these accounts (all of them when null) in force, plus what this node has not flushed yet. */
  #replace(stored: UsageRow[], accounts: Set<string> | null): void {
    const touched = accounts ?? new Set(stored.map((row) => row.accountId))
    for (const accountId of touched) {
      this.#counts.delete(accountId)
      this.#totals.delete(accountId)
    }
    for (const row of stored) if (touched.has(row.accountId)) this.#apply(row.accountId, row.month, row.lookups)
    for (const unflushed of [this.#pending, this.#inFlight]) {
      for (const row of entriesOf(unflushed)) if (touched.has(row.accountId)) this.#apply(row.accountId, row.month, row.lookups)
    }
  }

  #apply(accountId: string, month: string, delta: number) {
    addTo(this.#counts, accountId, month, delta)
    this.#totals.set(accountId, (this.#totals.get(accountId) ?? 0) + delta)
  }
}
