// Lookup counts per account and UTC month. Counting happens in memory on the request path; the
// counts are written to the store every flush interval (TAXATLAS_USAGE_FLUSH_MS, 1 s by default)
// and on shutdown. A flush takes the counts gathered so far and they are durable once its commit
// returns, so a crash loses the counts of up to one interval plus the time of one flush (under
// load, ~1.0-1.5 s with the default interval); while the store refuses writes they stay pending
// in memory and go with the first flush that succeeds (docs/reliability.md).
import type { Database } from './database.ts'
import type { Logger } from '../base/logger.ts'

const FAILURE_RELOG_MS = 60_000

export type UsageRow = { accountId: string; month: string; lookups: number }

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

export class UsageCounter {
  readonly #counts: Counts = new Map()
  readonly #totals = new Map<string, number>()
  #pending: Counts = new Map()

  private constructor(private readonly db: Database) {}

  static async load(db: Database): Promise<UsageCounter> {
    const usage = new UsageCounter(db)
    for (const row of await db.rows('SELECT account_id, month, lookups FROM usage')) {
      usage.#apply(String(row.account_id), String(row.month), Number(row.lookups))
    }
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
  }

  rows(): UsageRow[] {
    return [...entriesOf(this.#counts)].sort((a, b) => a.accountId.localeCompare(b.accountId) || a.month.localeCompare(b.month))
  }

  /** Writes the counts gathered since the last flush; on failure they stay pending for the next one. */
  async flush(): Promise<void> {
    const batch = this.#pending
    this.#pending = new Map()
    const changes = [...entriesOf(batch)].filter((change) => change.lookups !== 0)
    if (changes.length === 0) return
    try {
      await this.db.transaction(async (tx) => {
        for (const { accountId, month, lookups } of changes) {
          await tx.run(
            `INSERT INTO usage VALUES (?, ?, ?)
             ON CONFLICT (account_id, month) DO UPDATE SET lookups = usage.lookups + excluded.lookups`,
            [accountId, month, lookups],
          )
        }
      })
    } catch (error) {
      for (const { accountId, month, lookups } of changes) addTo(this.#pending, accountId, month, lookups)
      throw error
    }
  }

  /**
   * Flushes every `intervalMs` until the returned function is called. A failure is logged when
   * its reason is new, then once a minute while it lasts, not at every interval.
   */
  flushEvery(intervalMs: number, logger: Logger): () => void {
    let failing: { reason: string; loggedAt: number; failures: number } | null = null
    const timer = setInterval(() => {
      this.flush().then(
        () => {
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

  #apply(accountId: string, month: string, delta: number) {
    addTo(this.#counts, accountId, month, delta)
    this.#totals.set(accountId, (this.#totals.get(accountId) ?? 0) + delta)
  }
}
