// Faults not covered elsewhere, on the server as its own process:
// - the store's disk refusing every write while the server runs: RLIMIT_FSIZE set to 0 on the
//   running process from outside (prlimit), so each write of the process to a file fails with
//   EFBIG, as it would on a full disk (chmod does not stop root, and DuckDB keeps its file open);
// - kill -9 while a streamed backfill is half read, after one row group was committed.
// Covered elsewhere: source outages, truncated and malformed files (refresh-faults.test.ts), a
// corrupted snapshot (server-snapshots.test.ts), kill -9 after acknowledged writes
// (portability-durability.test.ts), a store that cannot be opened (server-startup.test.ts).
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ErrorBody } from '../server/base/errors.ts'
import { COMMIT_ROWS } from '../server/store/transactions-bulk.ts'
import { TaxjarErrorBody } from '../server/taxjar/taxjar-error.ts'
import { centsText, ndjsonOf, planCents, postNdjson, type RowPlan } from './support/portability-rows.ts'
import { servedZips } from './support/portability-snapshot.ts'
import { limitProcess } from './support/process-limit.ts'
import { keyCaller } from './support/reliability-server-process.ts'
import { storeProcessSuite } from './support/store-process-suite.ts'

const suite = storeProcessSuite('reliability-faults')
const start = (storePath: string) => suite.start(storePath)

const utcDay = (daysBack: number) => new Date(Date.now() - daysBack * 86_400_000).toISOString().slice(0, 10)
const order = (id: string) => ({ transaction_id: id, transaction_date: utcDay(3), to_zip: '30303', to_state: 'GA', amount: '19.99', shipping: '0', sales_tax: '1.60' })

const caller = keyCaller

const gaTotals = async (call: ReturnType<typeof caller>) => {
  const health = await call('GET', '/v1/portability/nexus/health')
  expect(health.status).toBe(200)
  return health.body.states.find((s: { state: string }) => s.state === 'GA') as { transaction_count: number; order_total: string }
}

describe('the store file unwritable while the server runs', () => {
  it('refuses writes with 503 and the reason, keeps lookups and reads answering, and writes again once the disk takes them', async () => {
    const storePath = path.join(suite.tmp, 'unwritable', 'taxatlas.duckdb')
    const server = await start(storePath)
    const { api_key: key } = await server.createAccount('enterprise')
    const call = caller(server, key)
    expect((await call('POST', '/v1/portability/orders', order('before-1'))).status).toBe(201)
    expect((await call('GET', '/v1/tax/ga?zip=30303')).status).toBe(200)
    const usedBefore = (await call('GET', '/v1/account')).body.quota.used

    const refusingWrites = await limitProcess(server.pid, 'fsize', 0)
    const refusedWrites = [
      await call('POST', '/v1/portability/orders', order('during-1')),
      await call('PUT', '/v1/portability/nexus', { regions: [{ state: 'GA' }] }),
      await call('POST', '/v1/portability/transactions/backfill', JSON.stringify(order('during-2')), 'application/x-ndjson'),
    ]
    for (const response of refusedWrites) {
      expect(response.status, response.text).toBe(503)
      expect(response.headers.get('retry-after')).toBe('30')
      const { error } = ErrorBody.parse(response.body)
      expect(error.code).toBe('SERVICE_UNAVAILABLE')
      expect(error.message).toMatch(/cannot write to its file right now \(File too large\)/)
      expect(response.text).not.toContain(storePath)
    }
    const taxjar = await call('DELETE', '/taxjar/v2/transactions/orders/before-1')
    expect(taxjar.status).toBe(503)
    expect(TaxjarErrorBody.parse(taxjar.body).detail).toMatch(/File too large/)
    const admin = await server.admin('POST', '/admin/accounts', { name: 'during', tier: 'starter' })
    expect(admin.status).toBe(503)

    // Lookups, reads and public routes answer as before; the refused writes left nothing.
    for (let i = 0; i < 20; i++) expect((await call('GET', '/v1/tax/ga?zip=30303')).status).toBe(200)
    expect((await call('GET', '/v1/portability/orders/before-1')).status).toBe(200)
    expect((await call('GET', '/v1/portability/orders/during-1')).status).toBe(404)
    expect((await call('GET', '/v1/portability/nexus')).body.regions).toEqual([])
    // /healthz says so, with a status a load balancer acts on.
    const degraded = await fetch(`${server.url}/healthz`)
    expect(degraded.status).toBe(503)
    expect(await degraded.json()).toMatchObject({ status: 'degraded', store: { status: 'degraded', problem: 'write_refused', reason: expect.stringMatching(/File too large/) } })
    expect((await call('GET', '/v1/account')).body.quota.used).toBe(usedBefore + 20)
    // The usage flush keeps failing with the reason in the log, and keeps the counts pending.
    await expect.poll(() => server.events().some((e) => e.event === 'usage_flush_failed' && /File too large/.test(String(e.reason)))).toBe(true)

    await refusingWrites.lift()
    expect((await call('POST', '/v1/portability/orders', order('after-1'))).status).toBe(201)
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200)
    expect(await server.stop()).toBe(0)

    // What was acknowledged is there after a restart, the lookups counted during the outage too.
    const again = await start(storePath)
    const recall = caller(again, key)
    for (const id of ['before-1', 'after-1']) expect((await recall('GET', `/v1/portability/orders/${id}`)).status, id).toBe(200)
    expect((await recall('GET', '/v1/portability/orders/during-1')).status).toBe(404)
    expect((await recall('GET', '/v1/account')).body.quota.used).toBe(usedBefore + 20)
    expect(await again.stop()).toBe(0)
  })
})

describe('kill -9 in the middle of a streamed backfill', () => {
  it('keeps the acknowledged writes and whole commits only; sending the file again completes it without a duplicate', async () => {
    const storePath = path.join(suite.tmp, 'killed', 'taxatlas.duckdb')
    const first = await start(storePath)
    const { api_key: key } = await first.createAccount('enterprise')
    const call = caller(first, key)
    const zips = await servedZips(suite.artifactsDir)
    for (let i = 0; i < 20; i++) {
      const response = await call('POST', '/v1/portability/orders', { ...order(`ack-${i}`), to_zip: zips.get('CT')![i], to_state: 'CT', amount: `${i}.25` })
      expect(response.status).toBe(201)
    }
    expect((await call('PUT', '/v1/portability/nexus', { regions: [{ state: 'CT', registered_since: '2025-06-01' }] })).status).toBe(200)

    // Less than two row groups. The stream pauses well past the first (socket buffers hold a few
    // MB), the server commits what it has staged (visible to nexus health), and is killed with
    // the rest read but not committed, and nothing acknowledged.
    const plan: RowPlan = { rows: COMMIT_ROWS + 100_000, zips: [['GA', zips.get('GA')!]], today: utcDay(1), days: 200, prefix: 'kill' }
    let resume!: () => void
    const killed = new Promise<void>((resolve) => (resume = resolve))
    async function* pausedMidway(): AsyncGenerator<Uint8Array> {
      let sentRows = 0
      for await (const chunk of ndjsonOf(plan)) {
        yield chunk
        sentRows += chunk.reduce((lines, byte) => lines + (byte === 10 ? 1 : 0), 0)
        if (sentRows >= COMMIT_ROWS + 80_000) {
          await killed
          return
        }
      }
    }
    const upload = postNdjson(first.url, key, pausedMidway())
      .then((r) => r.text())
      .then((text) => `answered: ${text}`, () => 'cut off')
    let committed = 0
    await expect.poll(async () => (committed = (await gaTotals(call)).transaction_count), { timeout: 120_000, interval: 100 }).toBeGreaterThan(0)
    await first.kill9()
    resume()
    expect(await upload).toBe('cut off')

    const second = await start(storePath)
    const recall = caller(second, key)
    for (let i = 0; i < 20; i++) expect((await recall('GET', `/v1/portability/orders/ack-${i}`)).body.order.amount, `ack-${i}`).toBe(`${i}.25`)
    expect((await recall('GET', '/v1/portability/nexus')).body.regions).toMatchObject([{ state: 'CT', registered_since: '2025-06-01' }])
    // Exactly what was committed before the kill: one whole row group, nothing of the half read after.
    expect(committed).toBe(COMMIT_ROWS)
    expect((await gaTotals(recall)).transaction_count).toBe(committed)

    const report = await (await postNdjson(second.url, key, ndjsonOf(plan))).json()
    expect(report).toMatchObject({ received: plan.rows, accepted: plan.rows - committed, duplicate: committed, rejected: 0 })
    const cents = planCents(plan, 'GA')
    expect(await gaTotals(recall)).toMatchObject({ transaction_count: plan.rows, order_total: centsText(cents) })
    expect(await second.stop()).toBe(0)
  })
})
