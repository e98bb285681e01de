// PostgreSQL restarted under load, with two server processes on it: while it is down, requests
// that need it (orders, reading an order back) get 503 with Retry-After, lookups keep answering
// (keys are checked in memory, counts wait in memory), and once it is back the nodes serve
// everything again by themselves, with every lookup served meanwhile counted.
import { rm } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { startPostgres, type PostgresServer } from './support/postgres-server.ts'
import { gaOrder } from './support/portability-server.ts'
import { portabilityArtifacts } from './support/portability-snapshot.ts'
import { callNode, startCluster, type Cluster } from './support/scale-cluster.ts'

let artifactsDir: string
let postgres: PostgresServer
let cluster: Cluster

beforeAll(async () => {
  artifactsDir = await portabilityArtifacts(inject('mirrorUrl'))
  // A server of its own: the run's shared one must not go down under other tests.
  postgres = await startPostgres()
  cluster = await startCluster({ count: 2, artifactsDir, databaseUrl: await postgres.createDatabase('restart'), env: { TAXATLAS_USAGE_FLUSH_MS: '200', TAXATLAS_STORE_POLL_MS: '500' } })
})
afterAll(async () => {
  await cluster?.dispose()
  await postgres?.dispose()
  await rm(artifactsDir, { recursive: true, force: true })
})

type Tally = { lookups: Map<number, number>; orders: Map<number, number>; retryAfter: Set<string | null> }
type Phase = 'up' | 'down' | 'back'

describe('PostgreSQL restarted under load', () => {
  it('refuses what needs it with 503 + Retry-After, keeps answering lookups, and recovers by itself', async () => {
    const { api_key: key, account_id: account } = await cluster.nodes[0].createAccount('enterprise')
    for (const node of cluster.nodes) await expect.poll(async () => (await callNode(node, key, 'GET', '/v1/account')).status).toBe(200)

    let phase = 'up' as Phase
    const tallies: Record<Phase, Tally> = {
      up: { lookups: new Map(), orders: new Map(), retryAfter: new Set() },
      down: { lookups: new Map(), orders: new Map(), retryAfter: new Set() },
      back: { lookups: new Map(), orders: new Map(), retryAfter: new Set() },
    }
    let servedLookups = 0
    let orders = 0
    let running = true
    // An order acknowledged before the outage, to read back after it (the first one posted may have been refused).
    let acknowledgedBefore: string | null = null
    const bump = (counts: Map<number, number>, status: number) => counts.set(status, (counts.get(status) ?? 0) + 1)
    const load = Array.from({ length: 8 }, async (_, worker) => {
      const node = cluster.nodes[worker % 2]
      while (running) {
        const during = phase
        const lookup = await callNode(node, key, 'GET', '/v1/tax/ga?zip=30303')
        bump(tallies[during].lookups, lookup.status)
        if (lookup.status === 200) servedLookups++
        const id = `restart-${worker}-${orders++}`
        const order = await callNode(node, key, 'POST', '/v1/portability/orders', gaOrder(id))
        bump(tallies[during].orders, order.status)
        if (order.status === 201 && during === 'up') acknowledgedBefore ??= id
        if (order.status === 503) tallies[during].retryAfter.add(order.headers.get('retry-after'))
      }
    })

    await expect.poll(() => tallies.up.orders.get(201) ?? 0).toBeGreaterThan(50)
    await postgres.stop()
    phase = 'down'
    await expect.poll(() => tallies.down.orders.get(503) ?? 0).toBeGreaterThan(20)
    await expect.poll(() => tallies.down.lookups.get(200) ?? 0).toBeGreaterThan(100)
    // Reading an order back needs the database too.
    const read = await callNode(cluster.nodes[1], key, 'GET', `/v1/portability/orders/${acknowledgedBefore}`)
    expect(read.status).toBe(503)
    expect(read.body.error.code).toBe('SERVICE_UNAVAILABLE')
    // It never claims nothing was changed: a backfill cut by the outage has committed chunks.
    expect(read.body.error.message).toMatch(/changes not yet committed were not saved/)
    expect(Number(read.headers.get('retry-after'))).toBeGreaterThan(0)

    await postgres.start()
    phase = 'back'
    await expect.poll(() => tallies.back.orders.get(201) ?? 0).toBeGreaterThan(50)
    running = false
    await Promise.all(load)

    // While it was down: lookups only ever 200, orders only 503 with a Retry-After (or created
    // just before the stop took effect).
    expect([...tallies.down.lookups.keys()]).toEqual([200])
    expect([...tallies.down.orders.keys()].every((status) => status === 503 || status === 201)).toBe(true)
    expect([...tallies.down.retryAfter].every((value) => Number(value) > 0)).toBe(true)
    // Nothing but 2xx before and after, apart from the moments around the restart itself.
    expect([...tallies.up.lookups.keys()]).toEqual([200])
    expect([...tallies.back.lookups.keys()]).toEqual([200])
    // Every lookup served, outage included, is counted in the database once the nodes flush.
    await expect
      .poll(async () => Number((await cluster.sql('SELECT coalesce(sum(lookups), 0)::int AS n FROM usage WHERE account_id = $1', [account]))[0].n))
      .toBe(servedLookups)
    // Both nodes read from the database again.
    for (const node of cluster.nodes) expect((await callNode(node, key, 'GET', `/v1/portability/orders/${acknowledgedBefore}`)).status).toBe(200)
  })
})
