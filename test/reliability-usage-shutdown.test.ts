// SIGTERM while the store cannot be written (its DuckDB file moved away, as a volume unmounted):
// the shutdown tries the last usage flush again for its grace period, then keeps the counts in the
// spill file beside the store, and the next start adds them back once the store is there again:
// every lookup served is counted, once.
import { existsSync } from 'node:fs'
import { rename } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { HealthBody } from '../server/routes/health.ts'
import { spillPathOf } from '../server/store/usage-spill.ts'
import { keyCaller, type ServerProcess } from './support/reliability-server-process.ts'
import { storeProcessSuite } from './support/store-process-suite.ts'

// Identity checked every 100 ms; a grace period of 1.5 s, so the test waits through all of it.
const ENV = { TAXATLAS_STORE_CHECK_MS: '100', TAXATLAS_STORE_RETRY_MAX_MS: '1000', TAXATLAS_SHUTDOWN_TIMEOUT_MS: '1500', TAXATLAS_USAGE_FLUSH_MS: '200' }

const suite = storeProcessSuite('usage-shutdown', ENV)
const start = (storePath: string) => suite.start(storePath)

async function used(server: ServerProcess, key: string): Promise<number> {
  const account = await keyCaller(server, key)('GET', '/v1/account')
  expect(account.status, account.text).toBe(200)
  return account.body.quota.used as number
}

async function lookups(server: ServerProcess, key: string, count: number): Promise<void> {
  const call = keyCaller(server, key)
  for (let i = 0; i < count; i++) expect((await call('GET', '/v1/tax/ga?zip=30303')).status).toBe(200)
}

describe('SIGTERM while the store cannot be written', () => {
  it('keeps the unflushed usage counts in the spill file and counts them, once, when the store is back', async () => {
    const storePath = path.join(suite.tmp, 'outage', 'taxatlas.duckdb')
    const spill = spillPathOf(storePath)
    const first = await start(storePath)
    const { api_key: key } = await first.createAccount('enterprise')
    await lookups(first, key, 7)

    await rename(storePath, `${storePath}.away`)
    await expect.poll(async () => HealthBody.parse(await (await fetch(`${first.url}/healthz`)).json()).store).toMatchObject({ problem: 'file_lost' })
    await lookups(first, key, 30)
    expect(await used(first, key)).toBe(37)
    expect(await first.stop()).toBe(0)
    const spilled = first.events().filter((e) => e.event === 'usage_spilled')
    expect(spilled).toEqual([expect.objectContaining({ level: 'warn', file: spill })])
    // At least the lookups of the outage; those before it may or may not have been flushed in time.
    expect(spilled[0].lookups).toBeGreaterThanOrEqual(30)
    expect(first.events().filter((e) => e.event === 'usage_counts_lost')).toEqual([])
    expect(existsSync(spill)).toBe(true)

    await rename(`${storePath}.away`, storePath)
    const second = await start(storePath)
    await expect.poll(() => second.events().filter((e) => e.event === 'usage_spill_restored')).toEqual([expect.objectContaining({ lookups: spilled[0].lookups })])
    expect(await used(second, key)).toBe(37)
    // Removed once a flush has written its counts.
    await expect.poll(() => existsSync(spill)).toBe(false)
    await lookups(second, key, 3)
    expect(await second.stop()).toBe(0)

    // Read from the store alone: counted once, nothing left to add.
    const third = await start(storePath)
    expect(await used(third, key)).toBe(40)
    expect(await third.stop()).toBe(0)
    expect(third.events().filter((e) => e.event === 'usage_spill_restored')).toEqual([])
  })
})
