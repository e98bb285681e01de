// Every write acknowledged to a client survives `kill -9` of the server: a real child process
// takes orders, a backfill and a registration list, is SIGKILLed right after the last answer,
// and a new process on the same store file reads all of it back.
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { startChildServer, type ChildServer } from './support/portability-child-server.ts'
import { centsText, ndjsonOf, planCents, postNdjson, type RowPlan } from './support/portability-rows.ts'
import { portabilityArtifacts, servedZips } from './support/portability-snapshot.ts'

let artifactsDir: string
let storeDir: string
const children: ChildServer[] = []

beforeAll(async () => {
  artifactsDir = await portabilityArtifacts(inject('mirrorUrl'))
  storeDir = await mkdtemp(path.join(os.tmpdir(), 'taxatlas-durability-'))
})
afterAll(async () => {
  for (const child of children) await child.kill9().catch(() => undefined)
  await rm(storeDir, { recursive: true, force: true })
  await rm(artifactsDir, { recursive: true, force: true })
})

async function start(): Promise<ChildServer> {
  const child = await startChildServer({ artifactsDir, storePath: path.join(storeDir, 'taxatlas.duckdb') })
  children.push(child)
  return child
}

const utcDay = (daysBack: number) => new Date(Date.now() - daysBack * 86_400_000).toISOString().slice(0, 10)

describe('durability', () => {
  it('keeps every acknowledged order, backfill row and registration after kill -9', async () => {
    const zips = await servedZips(artifactsDir)
    const first = await start()
    const { api_key: key } = await first.createAccount('enterprise')
    const call = (server: ChildServer, method: string, pathName: string, body?: unknown) =>
      fetch(`${server.url}${pathName}`, {
        method,
        headers: { 'X-API-Key': key, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      })

    // More than one DuckDB row group (122,880 rows): the first is committed straight to the data
    // file, the rest through the write-ahead log; both paths must survive.
    const plan: RowPlan = { rows: 130_000, zips: [['GA', zips.get('GA')!]], today: utcDay(1), days: 200, prefix: 'hist' }
    const backfill = await postNdjson(first.url, key, ndjsonOf(plan))
    expect((await backfill.json()).accepted).toBe(130_000)
    expect((await call(first, 'PUT', '/v1/portability/nexus', { regions: [{ state: 'GA', registered_since: '2025-03-01' }] })).status).toBe(200)

    const orders = 150
    for (let i = 0; i < orders; i++) {
      const response = await call(first, 'POST', '/v1/portability/orders', {
        transaction_id: `live-${i}`,
        transaction_date: utcDay(i % 30),
        to_zip: zips.get('CT')![i % 50],
        to_state: 'CT',
        amount: `${i}.01`,
      })
      expect(response.status).toBe(201)
    }
    // The last acknowledged write is an update: it must not be lost either.
    expect((await (await call(first, 'POST', '/v1/portability/orders', { transaction_id: 'live-0', transaction_date: utcDay(0), to_zip: zips.get('CT')![0], to_state: 'CT', amount: '7777.77' })).json()).result).toBe('updated')
    await first.kill9()
    // Nothing was checkpointed: what follows is recovered from the write-ahead log.
    expect(existsSync(`${path.join(storeDir, 'taxatlas.duckdb')}.wal`)).toBe(true)

    const second = await start()
    for (let i = 0; i < orders; i++) {
      const response = await call(second, 'GET', `/v1/portability/orders/live-${i}`)
      expect(response.status, `live-${i}`).toBe(200)
      expect((await response.json()).order.amount).toBe(i === 0 ? '7777.77' : `${i}.01`)
    }
    const health = await (await call(second, 'GET', '/v1/portability/nexus/health')).json()
    const ga = health.states.find((s: { state: string }) => s.state === 'GA')
    const cents = planCents(plan, 'GA')
    expect(ga).toMatchObject({ transaction_count: 130_000, order_total: centsText(cents), registered: true, registered_since: '2025-03-01' })
    expect(health.states.find((s: { state: string }) => s.state === 'CT').transaction_count).toBe(orders)
    // A re-run of the backfill finds every row already there.
    expect(await (await postNdjson(second.url, key, ndjsonOf(plan))).json()).toMatchObject({ accepted: 0, duplicate: 130_000 })
    expect(await second.stop()).toBe(0)
  })
})
