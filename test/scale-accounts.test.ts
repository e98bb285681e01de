// Three server processes on one PostgreSQL database: they start together and apply the schema's
// migrations once; a key created or revoked through any node's admin listener, or by the admin
// command on the database, is in force on every node — heard of by notification, long before the
// nodes' poll (10 minutes here) would have read it; and a change no notification announced is
// read by the poll.
import { rm } from 'node:fs/promises'
import { execa } from 'execa'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { MIGRATIONS } from '../server/store/postgres/pg-migrations.ts'
import { hashApiKey, newApiKey } from '../server/store/api-keys.ts'
import { createTestDatabase } from './support/postgres-server.ts'
import { portabilityArtifacts } from './support/portability-snapshot.ts'
import { callNode, startCluster, type Cluster } from './support/scale-cluster.ts'
import { PROJECT_ROOT } from './support/shared.ts'

let artifactsDir: string
let cluster: Cluster

beforeAll(async () => {
  artifactsDir = await portabilityArtifacts(inject('mirrorUrl'))
  const databaseUrl = await createTestDatabase(inject('postgresUrl'), 'accounts')
  cluster = await startCluster({ count: 3, artifactsDir, databaseUrl, env: { TAXATLAS_STORE_POLL_MS: '600000' } })
})
afterAll(async () => {
  await cluster?.dispose()
  await rm(artifactsDir, { recursive: true, force: true })
})

const lookup = (node: number, key: string) => callNode(cluster.nodes[node], key, 'GET', '/v1/tax/ga?zip=30303').then((r) => r.status)
const admin = async (node: number, method: string, pathName: string, body?: unknown) => {
  const response = await cluster.nodes[node].admin(method, pathName, body)
  return { status: response.status, body: await response.json() }
}

describe('nodes on one PostgreSQL database', () => {
  it('apply each migration once when they start together, and all serve', async () => {
    const applied = await cluster.sql('SELECT id FROM schema_migrations ORDER BY id')
    expect(applied.map((row) => row.id)).toEqual(MIGRATIONS.map((m) => m.id))
    // A node's log lines may reach the test a moment after its admin endpoint file does: once every
    // node's store_ready (logged after its migrations) is in, exactly one node migrated.
    const logged = (event: string) => cluster.nodes.filter((node) => node.events().some((e) => e.event === event)).length
    await expect.poll(() => logged('store_ready')).toBe(3)
    expect(logged('store_migrated')).toBe(1)
    for (const node of cluster.nodes) {
      const health = await (await fetch(`${node.url}/healthz`)).json()
      expect(health.store_engine).toBe('postgres')
    }
    expect((await cluster.sql('SELECT count(*)::int AS n FROM nodes'))[0].n).toBe(3)
  })

  it('put a key created through one node in force on every node, and a revocation through another', async () => {
    const created = await admin(0, 'POST', '/admin/accounts', { name: 'spread', tier: 'enterprise' })
    expect(created.status).toBe(201)
    const key = created.body.api_key
    for (const node of [0, 1, 2]) await expect.poll(() => lookup(node, key)).toBe(200)

    const second = await admin(2, 'POST', '/admin/keys', { account_id: created.body.account_id })
    expect(second.status).toBe(201)
    for (const node of [0, 1, 2]) await expect.poll(() => lookup(node, second.body.api_key)).toBe(200)

    expect((await admin(1, 'POST', `/admin/keys/${created.body.key_id}/revoke`)).status).toBe(200)
    for (const node of [0, 1, 2]) await expect.poll(() => lookup(node, key)).toBe(401)
    // The account's other key is untouched everywhere.
    for (const node of [0, 1, 2]) expect(await lookup(node, second.body.api_key)).toBe(200)
    // Every node lists what the others did.
    const listed = await admin(2, 'GET', '/admin/accounts')
    const keys = listed.body.accounts.find((a: { account_id: string }) => a.account_id === created.body.account_id).keys
    expect(keys.map((k: { key_id: string; revoked_at: string | null }) => [k.key_id, k.revoked_at !== null]).sort()).toEqual(
      [[created.body.key_id, true], [second.body.key_id, false]].sort(),
    )
  })

  it('put what the admin command does on the database in force on every node, no server asked', async () => {
    const env = { ...process.env, TAXATLAS_STORE: cluster.databaseUrl }
    const run = (...args: string[]) => execa('npm', ['run', '-s', 'admin', '--', ...args, '--json'], { cwd: PROJECT_ROOT, env })
    const account = JSON.parse((await run('create-account', '--name', 'by command', '--tier', 'starter')).stdout.trim().split('\n').at(-1)!)
    for (const node of [0, 1, 2]) await expect.poll(() => lookup(node, account.api_key)).toBe(200)
    await run('revoke-key', '--key', account.key_id)
    for (const node of [0, 1, 2]) await expect.poll(() => lookup(node, account.api_key)).toBe(401)
  })

  it('read a change that no notification announced at the next poll', async () => {
    const polling = await cluster.add({ TAXATLAS_STORE_POLL_MS: '300' })
    const created = await admin(0, 'POST', '/admin/accounts', { name: 'unannounced', tier: 'enterprise' })
    await expect.poll(() => callNode(polling, created.body.api_key, 'GET', '/v1/tax/ga?zip=30303').then((r) => r.status)).toBe(200)
    // A key written straight into the database, as a restore or a tool would, without NOTIFY.
    const issued = newApiKey()
    await cluster.sql(
      "INSERT INTO api_keys (id, account_id, key_hash, prefix, created_at) VALUES ('key_unannounced', $1, $2, $3, '2026-01-01T00:00:00.000Z')",
      [created.body.account_id, hashApiKey(issued.key).toString('hex'), issued.prefix],
    )
    await expect.poll(() => callNode(polling, issued.key, 'GET', '/v1/tax/ga?zip=30303').then((r) => r.status)).toBe(200)
    // The other nodes poll every 10 minutes and heard nothing: they do not know the key yet.
    expect(await lookup(0, issued.key)).toBe(401)
  })
})
