// DuckDB invalidated by a checkpoint the full disk refused: the store sits on a tmpfs of its own,
// kept nearly full while backfills grow the write-ahead log. Each commit's log still fits, so
// every backfill answered is durable; the automatic checkpoint that follows once the log passes
// DuckDB's threshold needs more room than is left and fails, and DuckDB gives up on the database
// ("FATAL Error: … Failed to create checkpoint …: No space left on device"). The server must
// refuse writes with 503 and when to retry, keep checking keys and answering lookups, report it,
// and, once space is freed, open the same file again without a restart, losing nothing.
import { rm, stat } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ErrorBody } from '../server/base/errors.ts'
import { fillerOf, leaveFree } from './support/disk-filler.ts'
import { centsText, ndjsonOf, planCents, planRow, postNdjson, type RowPlan } from './support/portability-rows.ts'
import { servedZips } from './support/portability-snapshot.ts'
import { keyCaller, type ServerProcess } from './support/reliability-server-process.ts'
import { storeProcessSuite } from './support/store-process-suite.ts'

const METRICS_TOKEN = 'metrics-token-for-the-invalidated-store-test'
// Rows per backfill: each commit's log (about half a MB) fits in what the disk keeps free, the
// checkpoint of every row so far does not.
const CHUNK_ROWS = 4_000
const KEEP_FREE_BYTES = 1024 * 1024

const suite = storeProcessSuite('store-invalidated', { TAXATLAS_STORE_RETRY_MAX_MS: '1000', TAXATLAS_METRICS_TOKEN: METRICS_TOKEN }, { smallDisk: '96m' })
const start = (storePath: string) => suite.start(storePath)

const utcDay = (daysBack: number) => new Date(Date.now() - daysBack * 86_400_000).toISOString().slice(0, 10)
const order = (id: string) => ({ transaction_id: id, transaction_date: utcDay(3), to_zip: '30303', to_state: 'GA', amount: '19.99', shipping: '0', sales_tax: '1.60' })
const ORDER_CENTS = 1999n

/** Rows [from, from + CHUNK_ROWS) of the plan, as one backfill. */
const chunk = (server: ServerProcess, key: string, plan: RowPlan, from: number) =>
  postNdjson(server.url, key, ndjsonOf({ ...plan, rows: CHUNK_ROWS }, (i) => planRow(plan, from + i)))

describe('a checkpoint refused by a full disk invalidates DuckDB', () => {
  it('refuses writes with when to retry, keeps answering, reopens the same file once there is room, and loses nothing acknowledged', async () => {
    const storePath = path.join(suite.disk, 'store', 'taxatlas.duckdb')
    const server = await start(storePath)
    const { api_key: key } = await server.createAccount('enterprise')
    const call = keyCaller(server, key)
    const orders: string[] = []
    for (let i = 0; i < 10; i++) {
      expect((await call('POST', '/v1/portability/orders', order(`before-${i}`))).status).toBe(201)
      orders.push(`before-${i}`)
    }
    const plan: RowPlan = { rows: 0, zips: [['GA', (await servedZips(suite.artifactsDir)).get('GA')!]], today: utcDay(1), days: 200, prefix: 'grow' }

    // Backfills until one is refused: every one answered 200 is acknowledged.
    let sent = 0
    let refused: Response | null = null
    for (let n = 0; n < 400 && refused === null; n++) {
      await leaveFree(suite.disk, KEEP_FREE_BYTES)
      const response = await chunk(server, key, plan, sent)
      if (response.status === 200) {
        expect(await response.json()).toMatchObject({ accepted: CHUNK_ROWS, rejected: 0 })
        sent += CHUNK_ROWS
      } else refused = response
    }
    expect(refused?.status, 'no backfill was refused').toBe(503)
    expect(ErrorBody.parse(await refused!.json()).error.message).toMatch(/stopped after a fatal error of its disk \(No space left on device\)/)
    const walBytes = (await stat(`${storePath}.wal`)).size
    // The log passed DuckDB's checkpoint threshold (16 MiB): the automatic checkpoint, not a log write, failed.
    expect(walBytes).toBeGreaterThan(8 * 1024 * 1024)
    await expect.poll(() => server.events().find((e) => e.event === 'store_invalidated')).toMatchObject({ reason: expect.stringMatching(/^FATAL Error: .*checkpoint.*No space left on device/) })
    expect(server.events().some((e) => e.event === 'store_write_refused')).toBe(false)

    // Writes and reads answer 503, with the reason and when the next reopen is due.
    const during = [
      await call('POST', '/v1/portability/orders', order('during-1')),
      await call('PUT', '/v1/portability/nexus', { regions: [{ state: 'GA' }] }),
      await call('GET', '/v1/portability/orders/before-1'),
    ]
    for (const response of during) {
      expect(response.status, response.text).toBe(503)
      // The next reopen is due within the backoff's ceiling, 1 s here.
      expect(response.headers.get('retry-after')).toBe('1')
      expect(ErrorBody.parse(response.body).error.message).toMatch(/stopped after a fatal error of its disk \(No space left on device\) and is being opened again/)
      expect(response.text).not.toContain(storePath)
    }
    expect((await server.admin('POST', '/admin/accounts', { name: 'during', tier: 'starter' })).status).toBe(503)
    // Keys are still checked, lookups answer.
    for (let i = 0; i < 10; i++) expect((await call('GET', '/v1/tax/ga?zip=30303')).status).toBe(200)
    expect((await keyCaller(server, `${key.slice(0, -4)}xxxx`)('GET', '/v1/tax/ga?zip=30303')).status).toBe(401)
    const degraded = await fetch(`${server.url}/healthz`)
    expect(degraded.status).toBe(503)
    expect(await degraded.json()).toMatchObject({ status: 'degraded', store: { status: 'degraded', problem: 'invalidated', reason: expect.stringMatching(/No space left on device/) } })
    expect(await metric('taxatlas_store_state{state="invalidated"}')).toBe(1)
    // Reopened while the disk is still full, its checkpoint fails again: still refused.
    await expect.poll(() => server.events().filter((e) => e.event === 'store_reopen_failed').length).toBeGreaterThanOrEqual(1)
    expect((await call('POST', '/v1/portability/orders', order('during-2'))).status).toBe(503)

    await rm(fillerOf(suite.disk))
    await expect.poll(async () => (await fetch(`${server.url}/healthz`)).status).toBe(200)
    await expect.poll(() => server.events().find((e) => e.event === 'store_reopened')).toMatchObject({ attempts: expect.any(Number), invalidated_since: expect.any(String) })
    // Every failed reopen failed alike: logged once.
    expect(server.events().filter((e) => e.event === 'store_reopen_failed')).toHaveLength(1)
    expect(await metric('taxatlas_store_state{state="ok"}')).toBe(1)
    expect(await metric('taxatlas_store_reopens_total')).toBe(1)
    // The reopen's checkpoint took the log into the file.
    expect((await stat(`${storePath}.wal`).catch(() => ({ size: 0 }))).size).toBeLessThan(walBytes)

    for (let i = 0; i < 10; i++) {
      expect((await call('POST', '/v1/portability/orders', order(`after-${i}`))).status).toBe(201)
      orders.push(`after-${i}`)
    }
    // The refused backfill may have been committed as DuckDB gave up (its commit was durable, the
    // checkpoint after it failed): sent again, its rows are stored once either way.
    const again = await (await chunk(server, key, plan, sent)).json()
    expect(again.accepted + again.duplicate).toBe(CHUNK_ROWS)
    sent += CHUNK_ROWS

    const holdsEverything = async (caller: typeof call) => {
      for (const id of orders) expect((await caller('GET', `/v1/portability/orders/${id}`)).status, id).toBe(200)
      for (const id of ['during-1', 'during-2']) expect((await caller('GET', `/v1/portability/orders/${id}`)).status, id).toBe(404)
      const health = await caller('GET', '/v1/portability/nexus/health')
      const ga = health.body.states.find((s: { state: string }) => s.state === 'GA')
      expect(ga).toMatchObject({ transaction_count: sent + orders.length, order_total: centsText(planCents(plan, 'GA', sent) + ORDER_CENTS * BigInt(orders.length)) })
    }
    await holdsEverything(call)
    expect(await server.stop()).toBe(0)

    const restarted = await start(storePath)
    await holdsEverything(keyCaller(restarted, key))
    expect(await restarted.stop()).toBe(0)

    async function metric(name: string): Promise<number> {
      const text = await (await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text()
      const line = text.split('\n').find((l) => l.startsWith(`${name} `))
      return Number(line?.slice(name.length + 1))
    }
  })
})
