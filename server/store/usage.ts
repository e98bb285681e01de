// Lookup counts per account and UTC month. Counting happens in memory on the request path; the
// counts are written to the store every flush interval (1 s by default) and on shutdown, so a
// crash loses at most one interval of counts.
import type { Database } from './database.ts'
import type { Logger } from '../logger.ts'

export type UsageRow = { accountId: string; month: string; lookups: number }

const keyOf = (accountId: string, month: string) => `${accountId}|${month}`

export class UsageCounter {
  readonly #counts = new Map<string, number>()
  readonly #totals = new Map<string, number>()
  #pending = new Map<string, number>()

  private constructor(private readonly db: Database) {}

  static async load(db: Database): Promise<UsageCounter> {
    const usage = new UsageCounter(db)
    for (const row of await db.rows('SELECT account_id, month, lookups FROM usage')) {
      usage.#apply(String(row.account_id), String(row.month), Number(row.lookups))
    }
    return usage
  }

  used(accountId: string, month: string): number {
    return this.#counts.get(keyOf(accountId, month)) ?? 0
  }

  /** Every lookup the account ever made (a trial's quota spans its whole trial). */
  usedTotal(accountId: string): number {
    return this.#totals.get(accountId) ?? 0
  }

  /** Counts (or, with a negative delta, uncounts) lookups; persisted by the next flush. */
  add(accountId: string, month: string, delta = 1): void {
    this.#apply(accountId, month, delta)
    const key = keyOf(accountId, month)
    this.#pending.set(key, (this.#pending.get(key) ?? 0) + delta)
  }

  rows(): UsageRow[] {
    return [...this.#counts.entries()]
      .map(([key, lookups]) => {
        const [accountId, month] = key.split('|')
        return { accountId, month, lookups }
      })
      .sort((a, b) => a.accountId.localeCompare(b.accountId) || a.month.localeCompare(b.month))
  }

  /** Writes the counts gathered since the last flush; on failure they stay pending for the next one. */
  async flush(): Promise<void> {
    const batch = this.#pending
    this.#pending = new Map()
    const changes = [...batch.entries()].filter(([, delta]) => delta !== 0)
    if (changes.length === 0) return
    try {
      await this.db.transaction(async (tx) => {
        for (const [key, delta] of changes) {
          const [accountId, month] = key.split('|')
          await tx.run(
            `INSERT INTO usage VALUES (?, ?, ?)
             ON CONFLICT (account_id, month) DO UPDATE SET lookups = usage.lookups + excluded.lookups`,
            [accountId, month, delta],
          )
        }
      })
    } catch (error) {
      for (const [key, delta] of changes) this.#pending.set(key, (this.#pending.get(key) ?? 0) + delta)
      throw error
    }
  }

  /** Flushes every `intervalMs` until the returned function is called. */
  flushEvery(intervalMs: number, logger: Logger): () => void {
    const timer = setInterval(() => {
      this.flush().catch((error: Error) => logger.error('usage_flush_failed', { reason: error.message }))
    }, intervalMs)
    timer.unref()
    return () => clearInterval(timer)
  }

  #apply(accountId: string, month: string, delta: number) {
    const key = keyOf(accountId, month)
    this.#counts.set(key, (this.#counts.get(key) ?? 0) + delta)
    this.#totals.set(accountId, (this.#totals.get(accountId) ?? 0) + delta)
  }
}
