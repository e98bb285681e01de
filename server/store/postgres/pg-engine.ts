// The PostgreSQL engine: any number of server nodes on one database. Opening it connects a pool,
// applies the migrations this database lacks (pg-migrations.ts, under a lock) and announces the
// node (pg-nodes.ts); accounts changed elsewhere are heard of through pg-change-feed.ts.
import type { Logger } from '../../base/logger.ts'
import type { StoreEngine } from '../store-engine.ts'
import { pgAccountTable } from './pg-account-table.ts'
import { listenForChanges } from './pg-change-feed.ts'
import { redactedUrl } from '../store-location.ts'
import { PgDatabase } from './pg-database.ts'
import { migrate } from './pg-migrations.ts'
import { joinNodes } from './pg-nodes.ts'
import { pgCustomerStore } from './pg-customers.ts'
import { pgRegistrationTable } from './pg-registrations.ts'
import { PgTransactionStore } from './pg-transactions.ts'
import { pgUsageTable } from './pg-usage-table.ts'
import { pgWebhookTable } from './pg-webhooks.ts'

/** `node`: a server, announced in the nodes table; false for the admin command, which serves no requests. */
export type PostgresOptions = { poolSize: number; pollMs: number; nodeName: string; logger: Logger; node: boolean }

export async function postgresEngine(url: string, options: PostgresOptions): Promise<StoreEngine> {
  const db = PgDatabase.connect(url, { size: options.poolSize, name: options.nodeName, onIdleError: (error) => options.logger.warn('store_connection_lost', { reason: error.message }) })
  try {
    const applied = await migrate(db)
    if (applied.length) options.logger.info('store_migrated', { applied })
    const nodes = options.node ? await joinNodes(db, { pollMs: options.pollMs, logger: options.logger }) : null
    return {
      kind: 'postgres',
      location: redactedUrl(url),
      shared: true,
      accounts: pgAccountTable(db),
      usage: pgUsageTable(db),
      transactions: new PgTransactionStore(db),
      registrations: pgRegistrationTable(db),
      customers: pgCustomerStore(db),
      webhooks: pgWebhookTable(db),
      watch: (changed) => listenForChanges(url, { pollMs: options.pollMs, changed, logger: options.logger, name: options.nodeName }),
      liveNodes: () => nodes?.live() ?? 1,
      close: async () => {
        await nodes?.stop()
        await db.close()
      },
    }
  } catch (error) {
    await db.close().catch(() => undefined)
    throw error
  }
}
