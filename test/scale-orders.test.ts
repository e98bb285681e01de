// Orders across three server processes on one PostgreSQL database: an order acknowledged by any
// node is visible from every node; the same order sent to all nodes at once (a client retrying
// elsewhere, with one Idempotency-Key) is stored once, by the database's key; a TaxJar
// transaction_id created twice at once is refused the second time, and so is a TaxJar customer;
// nexus health reads the same totals everywhere, and a nexus list replaced on one node replaces the
// one every other node kept; and kill -9 of a node in the middle of a stream of orders loses no
// acknowledged order and, once the unanswered ones are sent again to another node, stores none twice.
import { rm } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { createTestDatabase } from './support/postgres-server.ts'
import { gaOrder } from './support/portability-server.ts'
import { portabilityArtifacts, servedZips } from './support/portability-snapshot.ts'
import { callNode, startCluster, type Cluster } from './support/scale-cluster.ts'

let artifactsDir: string
let cluster: Cluster
let key: string
let account: string

beforeAll(async () => {
  artifactsDir = await portabilityArtifacts(inject('mirrorUrl'))
  const databaseUrl = await createTestDatabase(inject('postgresUrl'), 'orders')
  cluster = await startCluster({ count: 3, artifactsDir, databaseUrl })
  ;({ api_key: key, account_id: account } = await cluster.nodes[0].createAccount('enterprise'))
  for (const node of cluster.nodes) {
    while ((await callNode(node, key, 'GET', '/v1/account')).status !== 200) await new Promise((resolve) => setTimeout(resolve, 50))
  }
})
afterAll(async () => {
  await cluster?.dispose()
  await rm(artifactsDir, { recursive: true, force: true })
})

const call = (node: number, method: string, pathName: string, body?: unknown) => callNode(cluster.nodes[node], key, method, pathName, body)
const rowsOf = async (transactionId: string) =>
  Number((await cluster.sql('SELECT count(*)::int AS n FROM transactions WHERE account_id = $1 AND transaction_id = $2', [account, transactionId]))[0].n)

describe('orders across nodes', () => {
  it('are visible from every node once acknowledged by one', async () => {
    const created = await call(1, 'POST', '/v1/portability/orders', gaOrder('x-visible', { amount: '250.00' }))
    expect(created.status).toBe(201)
    for (const node of [0, 1, 2]) {
      const shown = await call(node, 'GET', '/v1/portability/orders/x-visible')
      expect(shown.status).toBe(200)
      expect(shown.body.order).toEqual(created.body.order)
    }
  })

  it('are stored once when the same order reaches every node at once', async () => {
    const order = gaOrder('x-everywhere', { amount: '75.10' })
    const answers = await Promise.all(
      [0, 1, 2, 0, 1, 2].map((node) =>
        fetch(`${cluster.nodes[node].url}/v1/portability/orders`, {
          method: 'POST',
          headers: { 'X-API-Key': key, 'Content-Type': 'application/json', 'Idempotency-Key': 'retry-x-everywhere' },
          body: JSON.stringify(order),
        }).then(async (r) => ({ status: r.status, body: await r.json() })),
      ),
    )
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 200, 201])
    expect(new Set(answers.map((a) => a.body.result))).toEqual(new Set(['created', 'unchanged']))
    expect(await rowsOf('x-everywhere')).toBe(1)
  })

  it('refuse a TaxJar transaction_id created on two nodes at once the second time', async () => {
    const body = { transaction_id: 'tj-twice', transaction_date: '2026-10-02', to_country: 'US', to_zip: '30303', to_state: 'GA', amount: 10, shipping: 0, sales_tax: 0.8 }
    const answers = await Promise.all([0, 1, 2].map((node) => call(node, 'POST', '/taxjar/v2/transactions/orders', body)))
    expect(answers.map((a) => a.status).sort()).toEqual([201, 422, 422])
    expect(await rowsOf('tj-twice')).toBe(1)
  })

  it('give the same nexus health on every node', async () => {
    const bodies = await Promise.all([0, 1, 2].map(async (node) => (await call(node, 'GET', '/v1/portability/nexus/health')).body))
    const ga = bodies.map((b) => b.states.find((s: { state: string }) => s.state === 'GA'))
    expect(ga[0].order_total).toBe('335.10')
    expect(ga[1]).toEqual(ga[0])
    expect(ga[2]).toEqual(ga[0])
  })

  it('give every node the nexus list another node replaced, though each kept the one it read', async () => {
    const regions = async (node: number) => (await call(node, 'GET', '/v1/portability/nexus')).body.regions.map((r: { state: string }) => r.state)
    for (const node of [0, 1, 2]) expect(await regions(node)).toEqual([])
    expect((await call(0, 'PUT', '/v1/portability/nexus', { regions: [{ state: 'GA', registered_since: '2025-01-01' }, { state: 'CT' }] })).status).toBe(200)
    for (const node of [1, 2]) await expect.poll(() => regions(node)).toEqual(['CT', 'GA'])
    const health = await call(2, 'GET', '/v1/portability/nexus/health')
    expect(health.body.states.find((s: { state: string }) => s.state === 'GA').registered).toBe(true)
  })

  it('store a TaxJar customer created on two nodes at once once', async () => {
    const customer = { customer_id: 'cust-twice', exemption_type: 'wholesale', name: 'Twice Ltd', exempt_regions: [{ country: 'US', state: 'GA' }] }
    const answers = await Promise.all([0, 1].map((node) => call(node, 'POST', '/taxjar/v2/customers', customer)))
    expect(answers.map((a) => a.status).sort()).toEqual([201, 422])
    for (const node of [0, 1, 2]) expect((await call(node, 'GET', '/taxjar/v2/customers/cust-twice')).status).toBe(200)
  })

  it('lose no acknowledged order and store none twice when a node is killed mid-stream', async () => {
    const zips = (await servedZips(artifactsDir)).get('CT')!
    const orderOf = (i: number) => gaOrder(`stream-${i}`, { to_state: 'CT', to_zip: zips[i % zips.length], amount: `${(i % 90) + 10}.25` })
    const victim = cluster.nodes[2]
    const total = 3_000
    const acknowledged = new Set<number>()
    const unanswered: number[] = []
    let next = 0
    let killed: Promise<void> | null = null
    await Promise.all(
      Array.from({ length: 24 }, async () => {
        // Killed once a few hundred orders are acknowledged, with two dozen in flight; the
        // client stops sending once it sees the node gone.
        while (next < total && !(killed && unanswered.length > 0)) {
          const i = next++
          if (acknowledged.size >= 400 && !killed) killed = victim.kill9()
          try {
            const response = await fetch(`${victim.url}/v1/portability/orders`, {
              method: 'POST',
              headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
              body: JSON.stringify(orderOf(i)),
            })
            if (response.status === 201) acknowledged.add(i)
            else unanswered.push(i)
          } catch {
            unanswered.push(i)
          }
        }
      }),
    )
    await killed
    expect(acknowledged.size).toBeGreaterThanOrEqual(400)
    expect(unanswered.length).toBeGreaterThan(0)
    // Every acknowledged order is there, read through another node.
    const stored = new Set(
      (await cluster.sql("SELECT transaction_id FROM transactions WHERE account_id = $1 AND transaction_id LIKE 'stream-%'", [account])).map((r) => Number(String(r.transaction_id).slice(7))),
    )
    for (const i of acknowledged) expect(stored.has(i)).toBe(true)
    const sample = [...acknowledged].slice(0, 20)
    for (const i of sample) expect((await call(0, 'GET', `/v1/portability/orders/stream-${i}`)).status).toBe(200)
    // The client sends what was never answered again, to a node that is up: each is stored once.
    for (const i of unanswered) {
      const retried = await call(1, 'POST', '/v1/portability/orders', orderOf(i))
      expect([200, 201]).toContain(retried.status)
      if (retried.status === 200) expect(retried.body.result).toBe('unchanged')
    }
    const counts = await cluster.sql(
      "SELECT count(*)::int AS n, count(DISTINCT transaction_id)::int AS ids FROM transactions WHERE account_id = $1 AND transaction_id LIKE 'stream-%'",
      [account],
    )
    expect(counts[0]).toEqual({ n: acknowledged.size + unanswered.length, ids: acknowledged.size + unanswered.length })
    cluster.nodes.splice(2, 1)
  })
})
