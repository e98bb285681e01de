// The last usage flush of a shutdown. A store that is unreachable (PostgreSQL restarting, the
// DuckDB file away) is tried again until the shutdown's grace period ends; what still could not be
// written then goes to the spill file (usage-spill.ts), which the next start adds back. Without a
// spill file (PostgreSQL and TAXATLAS_USAGE_SPILL_FILE unset) the counts are logged, one line per
// account and month, as usage_counts_lost.
import type { Logger } from '../base/logger.ts'
import type { UsageCounter } from './usage.ts'
import { removeUsageSpill, writeUsageSpill } from './usage-spill.ts'

const RETRY_MS = 250

export async function finalUsageFlush(usage: UsageCounter, options: { deadline: number; spillFile: string | null; logger: Logger }): Promise<void> {
  const { logger, spillFile } = options
  let failures = 0
  for (;;) {
    try {
      await usage.flush()
      // Whatever a spill file held was added back at start-up and has now been written.
      if (spillFile) await removeUsageSpill(spillFile)
      if (failures > 0) logger.info('usage_flush_resumed', { failures })
      return
    } catch (error) {
      if (failures++ === 0) logger.error('usage_flush_failed', { reason: (error as Error).message, pending: 'tried again until the shutdown grace period ends' })
      const left = options.deadline - performance.now()
      if (left <= 0) break
      await new Promise((resolve) => setTimeout(resolve, Math.min(RETRY_MS, left)))
    }
  }
  const rows = usage.unflushed()
  const lookups = rows.reduce((sum, row) => sum + row.lookups, 0)
  if (spillFile) {
    try {
      await writeUsageSpill(spillFile, rows)
      logger.warn('usage_spilled', { file: spillFile, rows: rows.length, lookups, failures })
      return
    } catch (error) {
      logger.error('usage_spill_failed', { file: spillFile, reason: (error as Error).message })
    }
  }
  for (const row of rows) logger.error('usage_counts_lost', { account_id: row.accountId, month: row.month, lookups: row.lookups })
}
