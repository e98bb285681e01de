// Quotas, trial expiry and the per-key rate limit against a real server whose clock the test
// moves (nothing sleeps), and usage counts surviving a restart on the same store.
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { ErrorBody } from '../server/base/errors.ts'
import { memoryLogger } from '../server/base/logger.ts'
import { AccountBody } from '../server/routes/account.ts'
import { API_ROUTES } from '../server/routes/index.ts'
import { Database } from '../server/store/database.ts'
import { UsageCounter } from '../server/store/usage.ts'
import { duckdbUsageTable } from '../server/store/duckdb-engine.ts'
import { artifactsWithSnapshot } from './support/server-snapshot.ts'
import { manualClock, startTestServer, withKey, type TestServer } from './support/server-harness.ts'
import { testLookupRoute } from './support/server-test-routes.ts'

const DAY_MS = 86_400_000
const TIERS = JSON.stringify({
  trial: { lookup_quota: 3 },
  starter: { lookup_quota: 4, rate_per_second: 1000, burst: 1000 },
  growth: { rate_per_second: 1, burst: 3 },
})

let artifacts: { dir: string; id: string }
let storeDir: string
let server: TestServer
const clock = manualClock('2026-03-30T12:00:00Z')
const start = (env: Record<string, string> = {}) =>
  startTestServer({ artifactsDir: artifacts.dir, storeDir, clock, routes: [...API_ROUTES, testLookupRoute], env: { TAXATLAS_TIERS: TIERS, ...env } })

beforeAll(async () => {
  artifacts = await artifactsWithSnapshot(inject('mirrorUrl'))
  storeDir = await mkdtemp(path.join(os.tmpdir(), 'taxatlas-server-store-'))
  server = await start()
})
afterAll(async () => {
  await server?.close()
  await rm(storeDir, { recursive: true, force: true })
  await rm(artifacts.dir, { recursive: true, force: true })
})

const lookup = (key: string, query = '') => fetch(`${server.url}/v1/test-lookup/30301${query}`, withKey(key))
const account = async (key: string) => AccountBody.parse(await (await fetch(`${server.url}/v1/account`, withKey(key))).json())

async function expect402(response: Response, code: string) {
  expect(response.status).toBe(402)
  const body = ErrorBody.parse(await response.json())
  expect(body.error.code).toBe(code)
  return body
}

describe('monthly quota', () => {
  it('counts 2xx lookups only, refuses past the quota with 402 QUOTA_EXCEEDED, and resets next month', async () => {
    const { api_key } = await server.createAccount('starter')
    expect((await lookup(api_key, '?miss=1')).status).toBe(404)
    for (let i = 0; i < 4; i++) expect((await lookup(api_key)).status).toBe(200)
    expect(await account(api_key)).toMatchObject({ quota: { period: '2026-03', limit: 4, used: 4, remaining: 0, resets_at: '2026-04-01T00:00:00.000Z' } })

    const body = await expect402(await lookup(api_key), 'QUOTA_EXCEEDED')
    expect(body.error).toMatchObject({ quota: 4, used: 4, period: '2026-03' })
    // Not a lookup: still answers.
    expect((await fetch(`${server.url}/v1/account`, withKey(api_key))).status).toBe(200)

    clock.set(Date.parse('2026-04-01T00:00:01Z'))
    expect((await lookup(api_key)).status).toBe(200)
    expect((await account(api_key)).quota).toMatchObject({ period: '2026-04', used: 1, remaining: 3 })
  })

  it('never lets concurrent lookups overrun the quota', async () => {
    const { api_key } = await server.createAccount('starter')
    const statuses = await Promise.all(Array.from({ length: 12 }, () => lookup(api_key).then((r) => r.status)))
    expect(statuses.filter((s) => s === 200)).toHaveLength(4)
    expect(statuses.filter((s) => s === 402)).toHaveLength(8)
  })

  it('enterprise has no quota', async () => {
    const { api_key } = await server.createAccount('enterprise')
    expect((await account(api_key)).quota).toMatchObject({ limit: null, remaining: null })
    for (let i = 0; i < 10; i++) expect((await lookup(api_key)).status).toBe(200)
  })
})

describe('trial', () => {
  it('allows its lookups for 14 days, then answers 402 TRIAL_EXPIRED (the account view still works)', async () => {
    const { api_key } = await server.createAccount('trial')
    const view = await account(api_key)
    expect(Date.parse(view.trial_ends_at!) - clock.now()).toBe(14 * DAY_MS)
    expect(view.quota).toMatchObject({ period: 'trial', limit: 3, resets_at: null })

    expect((await lookup(api_key)).status).toBe(200)
    clock.advance(14 * DAY_MS - 1)
    expect((await lookup(api_key)).status).toBe(200)
    clock.advance(1)
    const body = await expect402(await lookup(api_key), 'TRIAL_EXPIRED')
    expect(body.error.trial_ends_at).toBe(view.trial_ends_at)
    const after = await fetch(`${server.url}/v1/account`, withKey(api_key))
    expect(after.status).toBe(200)
    expect(AccountBody.parse(await after.json()).trial_expired).toBe(true)
  })

  it('the trial allowance spans months and is not reset by a new month', async () => {
    clock.set(Date.parse('2026-05-31T10:00:00Z'))
    const { api_key } = await server.createAccount('trial')
    expect((await lookup(api_key)).status).toBe(200)
    expect((await lookup(api_key)).status).toBe(200)
    clock.set(Date.parse('2026-06-02T10:00:00Z'))
    expect((await lookup(api_key)).status).toBe(200)
    await expect402(await lookup(api_key), 'QUOTA_EXCEEDED')
  })
})

describe('rate limit', () => {
  it('answers 429 RATE_LIMITED with Retry-After and RateLimit headers once the burst is spent', async () => {
    const { api_key } = await server.createAccount('growth')
    const remaining: string[] = []
    for (let i = 0; i < 3; i++) {
      const response = await fetch(`${server.url}/v1/account`, withKey(api_key))
      expect(response.status).toBe(200)
      expect(response.headers.get('ratelimit-limit')).toBe('3')
      // One family of names, the IETF draft's: the legacy X-RateLimit-* are not sent (docs/api.md).
      expect(response.headers.get('x-ratelimit-limit')).toBeNull()
      remaining.push(response.headers.get('ratelimit-remaining')!)
    }
    expect(remaining).toEqual(['2', '1', '0'])

    const limited = await fetch(`${server.url}/v1/account`, withKey(api_key))
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toBe('1')
    expect(limited.headers.get('ratelimit-remaining')).toBe('0')
    expect(limited.headers.get('ratelimit-reset')).toBe('3')
    const body = ErrorBody.parse(await limited.json())
    expect(body.error.code).toBe('RATE_LIMITED')

    clock.advance(1_000)
    expect((await fetch(`${server.url}/v1/account`, withKey(api_key))).status).toBe(200)
    expect((await fetch(`${server.url}/v1/account`, withKey(api_key))).status).toBe(429)
  })

  it('limits each key on its own', async () => {
    const { api_key, account_id } = await server.createAccount('growth')
    const second = await (await server.admin('POST', '/admin/keys', { account_id })).json()
    for (let i = 0; i < 3; i++) await fetch(`${server.url}/v1/account`, withKey(api_key))
    expect((await fetch(`${server.url}/v1/account`, withKey(api_key))).status).toBe(429)
    expect((await fetch(`${server.url}/v1/account`, withKey(second.api_key))).status).toBe(200)
  })
})

describe('usage persistence', () => {
  it('survives a restart on the same store', async () => {
    clock.set(Date.parse('2026-07-10T00:00:00Z'))
    const { api_key } = await server.createAccount('starter')
    for (let i = 0; i < 3; i++) expect((await lookup(api_key)).status).toBe(200)
    await server.close()
    server = await start()
    expect((await account(api_key)).quota).toMatchObject({ used: 3, remaining: 1 })
    const usage = await (await server.admin('GET', '/admin/usage?month=2026-07')).json()
    expect(usage.usage).toEqual([expect.objectContaining({ month: '2026-07', lookups: 3 })])
  })

  it('keeps each account and month apart, in memory and in the store', async () => {
    const db = await Database.open(path.join(storeDir, 'apart.duckdb'))
    const usage = await UsageCounter.load(duckdbUsageTable(db))
    usage.add('acct_a', '2026-09', 2)
    usage.add('acct_b', '2026-09', 3)
    usage.add('acct_a', '2026-10', 1)
    expect([usage.used('acct_a', '2026-09'), usage.used('acct_b', '2026-09'), usage.used('acct_a', '2026-10'), usage.used('acct_b', '2026-10')]).toEqual([2, 3, 1, 0])
    expect([usage.usedTotal('acct_a'), usage.usedTotal('acct_b')]).toEqual([3, 3])
    await usage.flush()
    const stored = await db.rows('SELECT account_id, month, lookups FROM usage ORDER BY account_id, month')
    expect(stored.map((r) => [r.account_id, r.month, Number(r.lookups)])).toEqual([['acct_a', '2026-09', 2], ['acct_a', '2026-10', 1], ['acct_b', '2026-09', 3]])
    expect((await UsageCounter.load(duckdbUsageTable(db))).rows()).toEqual(usage.rows())
    await db.close()
  })

  it('is written by the periodic flush, so a crash loses at most one flush interval', async () => {
    const file = path.join(storeDir, 'flush.duckdb')
    const db = await Database.open(file)
    const usage = await UsageCounter.load(duckdbUsageTable(db))
    const stop = usage.flushEvery(20, memoryLogger())
    usage.add('acct_a', '2026-09', 5)
    usage.add('acct_a', '2026-09', -1)
    await expect
      .poll(async () => (await db.rows('SELECT lookups FROM usage WHERE account_id = ?', ['acct_a'])).map((r) => Number(r.lookups)))
      .toEqual([4])
    // No final flush: what the timer wrote is what a crash leaves.
    stop()
    usage.add('acct_a', '2026-09', 100)
    await db.close()
    const reopened = await Database.open(file)
    expect((await UsageCounter.load(duckdbUsageTable(reopened))).used('acct_a', '2026-09')).toBe(4)
    await reopened.close()
  })
})
