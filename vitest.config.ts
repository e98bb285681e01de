import { defineConfig } from 'vitest/config'
import { LongFilesFirst } from './test/long-files-first.ts'

/**
 * The tests of what the store keeps (orders, backfill, nexus, TaxJar transactions, account
 * isolation, metrics, webhooks, returns), run a second time with the server on PostgreSQL
 * (test/support/server-harness.ts reads TAXATLAS_TEST_STORE): the same tests against both engines.
 */
const STORE_TESTS = [
  'test/portability-orders.test.ts',
  'test/portability-backfill.test.ts',
  'test/portability-nexus.test.ts',
  'test/taxjar-client.test.ts',
  'test/taxjar-taxes.test.ts',
  'test/security-isolation.test.ts',
  'test/client-server.test.ts',
  'test/server-metrics.test.ts',
  'test/webhooks.test.ts',
  'test/webhook-dispatch.test.ts',
  'test/portability-returns.test.ts',
]

/**
 * expect.poll waits on what a server or a child process does in its own time, which on a busy
 * 2-core machine can take seconds: it gives up after a minute, not vitest's default second. A
 * passing poll returns as soon as its condition holds, so the bound costs nothing then.
 */
const common = { testTimeout: 120_000, hookTimeout: 300_000, pool: 'forks', expect: { poll: { timeout: 60_000, interval: 50 } } } as const

export default defineConfig({
  test: {
    // Once for the whole run, both projects: the run's temp directory (checked for leftovers at the
    // end, after the others are torn down), one mirror, one PostgreSQL server.
    globalSetup: ['test/temp-dir-setup.ts', 'test/global-setup.ts', 'test/postgres-setup.ts'],
    // Two test files at a time. Most of them spend their time waiting on processes of their own (a
    // server, a refresh, PostgreSQL, Chromium), so one file at a time, vitest's choice on two cores,
    // leaves a core idle for much of the run.
    maxWorkers: 2,
    // The longest files start first, so that the run does not end on one of them alone.
    sequence: { sequencer: LongFilesFirst },
    projects: [
      { test: { ...common, name: 'default', include: ['test/**/*.test.ts'] } },
      { test: { ...common, name: 'postgres', include: STORE_TESTS, env: { TAXATLAS_TEST_STORE: 'postgres' } } },
    ],
  },
})
