// Limits across three server processes on one PostgreSQL database: a monthly quota and a trial's
// allowance hold across nodes within the documented bound (each node may count at most
// max(1, ⌊quota × 1%⌋) lookups of an account the database has not seen, so N nodes let through
// at most N of those past the quota), every lookup let through is counted in the database, and a
// key's request rate is shared among the live nodes so that together they never exceed it.
import { rm } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { createTestDatabase } from './support/postgres-server.ts'
import { portabilityArtifacts } from './support/portability-snapshot.ts'
import { callNode, startCluster, type Cluster } from './support/scale-cluster.ts'

const NODES = 3
const QUOTA = { starter: 60, trial: 30 }
const RATE = { perSecond: 1, burst: 12 }
const TIERS = {
  starter: { lookup_quota: QUOTA.starter, rate_per_second: 10_000, burst: 10_000 },
  trial: { lookup_quota: QUOTA.trial, rate_per_second: 10_000, burst: 10_000 },
  growth: { lookup_quota: null, rate_per_second: RATE.perSecond, burst: RATE.burst },
}
/** TAXATLAS_USAGE_UNSYNCED_PERCENT's default: 1% of the quota, at least one lookup, per node. */
const unsyncedPerNode = (quota: number) => Math.max(1, Math.floor(quota * 0.01))

let artifactsDir: string
let cluster: Cluster

beforeAll(async () => {
  artifactsDir = await portabilityArtifacts(inject('mirrorUrl'))
  const databaseUrl = await createTestDatabase(inject('postgresUrl'), 'limits')
  cluster = await startCluster({
    count: NODES,
    artifactsDir,
    databaseUrl,
    env: { TAXATLAS_TIERS: JSON.stringify(TIERS), TAXATLAS_STORE_POLL_MS: '300', TAXATLAS_USAGE_FLUSH_MS: '200' },
  })
})
afterAll(async () => {
  await cluster?.dispose()
  await rm(artifactsDir, { recursive: true, force: true })
})

const lookup = (node: number, key: string) => callNode(cluster.nodes[node % NODES], key, 'GET', '/v1/tax/ga?zip=30303')

/** Waits until every node has heard of a key created on one of them (GET /v1/account counts no lookup). */
async function knownEverywhere(key: string): Promise<void> {
  for (const node of cluster.nodes) await expect.poll(async () => (await callNode(node, key, 'GET', '/v1/account')).status).toBe(200)
}

/** `total` lookups spread round-robin over the nodes, `concurrency` at a time; the statuses. */
async function spread(key: string, total: number, concurrency: number): Promise<{ status: number; code?: string }[]> {
  const results: { status: number; code?: string }[] = []
  let next = 0
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const i = next++
        const { status, body } = await lookup(i, key)
        results.push({ status, code: body?.error?.code })
      }
    }),
  )
  return results
}

describe('limits across nodes', () => {
  for (const tier of ['starter', 'trial'] as const) {
    it(`holds the ${tier} quota within N × the per-node unsynced share, and counts every lookup in the database`, async () => {
      const { api_key: key, account_id: account } = await cluster.nodes[0].createAccount(tier)
      await knownEverywhere(key)
      const results = await spread(key, QUOTA[tier] * 3, 12)
      const served = results.filter((r) => r.status === 200).length
      const refused = results.filter((r) => r.status !== 200)
      // Nodes never refuse before the quota is used up: a node's count is never above the truth.
      expect(served).toBeGreaterThanOrEqual(QUOTA[tier])
      expect(served).toBeLessThanOrEqual(QUOTA[tier] + NODES * unsyncedPerNode(QUOTA[tier]))
      expect(new Set(refused.map((r) => `${r.status} ${r.code}`))).toEqual(new Set(['402 QUOTA_EXCEEDED']))
      // Every lookup served is in the database once the nodes have flushed.
      await expect
        .poll(async () => Number((await cluster.sql('SELECT coalesce(sum(lookups), 0)::int AS n FROM usage WHERE account_id = $1', [account]))[0].n))
        .toBe(served)
      // Any node's admin report shows every node's lookups.
      const report = await (await cluster.nodes[2].admin('GET', `/admin/usage?account_id=${account}`)).json()
      expect(report.usage.reduce((total: number, row: { lookups: number }) => total + row.lookups, 0)).toBe(served)
      // And every node refuses the next one.
      for (let node = 0; node < NODES; node++) expect((await lookup(node, key)).status).toBe(402)
    })
  }

  it("shares a key's request rate among the live nodes: together they let through no more than the tier's rate", async () => {
    const { api_key: probe } = await cluster.nodes[0].createAccount('growth')
    // Each node enforces a third of the burst once it counts three live nodes.
    for (let node = 0; node < NODES; node++) {
      await expect.poll(async () => (await lookup(node, probe)).headers.get('ratelimit-limit')).toBe(String(RATE.burst / NODES))
    }
    const { api_key: key } = await cluster.nodes[0].createAccount('growth')
    const started = performance.now()
    // One request answered per node (a 401 before a node has heard of the key takes no token).
    await knownEverywhere(key)
    const results = await spread(key, 5 * RATE.burst, 6)
    const seconds = (performance.now() - started) / 1000
    const allowed = NODES + results.filter((r) => r.status === 200).length
    // A bucket per node, each with a third of the burst and of the refill: never more than the
    // whole burst plus what the whole rate refilled while the requests ran.
    expect(allowed).toBeGreaterThanOrEqual(RATE.burst)
    expect(allowed).toBeLessThanOrEqual(RATE.burst + Math.ceil(seconds * RATE.perSecond))
    expect(results.filter((r) => r.status === 429).every((r) => r.code === 'RATE_LIMITED')).toBe(true)
  })

  it('gives a node that stops its share back to the others', async () => {
    const extra = await cluster.add({ TAXATLAS_TIERS: JSON.stringify(TIERS), TAXATLAS_STORE_POLL_MS: '300' })
    const { api_key: probe } = await cluster.nodes[0].createAccount('growth')
    await expect.poll(async () => (await lookup(0, probe)).headers.get('ratelimit-limit')).toBe(String(RATE.burst / 4))
    expect(await extra.stop()).toBe(0)
    cluster.nodes.pop()
    await expect.poll(async () => (await lookup(0, probe)).headers.get('ratelimit-limit')).toBe(String(RATE.burst / NODES))
  })
})
