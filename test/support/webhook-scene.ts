// A server announcing rate changes to webhook receivers on loopback, for the tests of webhooks,
// of the client's webhook methods and of the console's webhooks page: it serves the base snapshot
// of announcing-artifacts.ts, and `publish` serves a newer one whose GA changes are first seen
// there. The server's clock is moved by hand and deliveries are sent by `tick`.
import { rm } from 'node:fs/promises'
import path from 'node:path'
import { afterEach, beforeAll, expect, inject } from 'vitest'
import { snapshotDir } from '../../snapshot-contract/snapshot-store.ts'
import { endpointFilePath } from '../../server/admin/endpoint-file.ts'
import { announcingArtifacts } from './announcing-artifacts.ts'
import { createTestDatabase } from './postgres-server.ts'
import { manualClock, startTestServer, type ManualClock, type TestServer } from './server-harness.ts'
import { copyOfCachedArtifacts, pointTo } from './server-snapshot.ts'
import { tempDir } from './temp-dirs.ts'
import { startReceiver, type Receiver } from './webhook-receiver.ts'

/** Loopback receivers allowed; no delivery sent but by `tick`. */
export const LOOPBACK_ENV = { TAXATLAS_WEBHOOK_ALLOW_LOOPBACK: '1', TAXATLAS_WEBHOOK_POLL_MS: '600000' }
export const SECRET = 'whsec_test_secret_0123456789'

export type SceneOptions = {
  env?: Record<string, string>
  /** more than one: each a server on the same new PostgreSQL database and artifacts directory */
  nodes?: number
}

export type WebhookScene = Awaited<ReturnType<typeof webhookScene>>

/**
 * For the tests of one file: a function starting a scene, whose servers, receivers and folders
 * are removed after each test, failed or not.
 */
export function webhookScenes(): (options?: SceneOptions) => Promise<WebhookScene> {
  const cleanups: (() => Promise<unknown>)[] = []
  // The run's snapshot is built by the first test file that needs it: here, before any test's clock runs.
  beforeAll(async () => {
    await rm(await copyOfCachedArtifacts(inject('mirrorUrl'), { name: 'server' }), { recursive: true, force: true })
  })
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  })
  return (options = {}) => webhookScene(cleanups, options)
}

async function webhookScene(cleanups: (() => Promise<unknown>)[], { env = LOOPBACK_ENV, nodes: nodeCount = 1 }: SceneOptions) {
  const mirrorUrl = inject('mirrorUrl')
  const artifacts = await announcingArtifacts(mirrorUrl)
  const { dir, baseId, generated } = artifacts
  cleanups.push(() => rm(dir, { recursive: true, force: true }))
  const clock: ManualClock = manualClock(new Date(generated + 3_600_000).toISOString())
  const shared = nodeCount > 1 ? await createTestDatabase(inject('postgresUrl'), 'webhooks') : null
  const nodes: TestServer[] = []
  for (let n = 0; n < nodeCount; n++) {
    const storeDir = await tempDir('webhooks-node')
    const nodeEnv: Record<string, string> = shared ? { TAXATLAS_STORE: shared, TAXATLAS_ADMIN_ENDPOINT_FILE: endpointFilePath(path.join(storeDir, 'taxatlas.duckdb')) } : {}
    const node = await startTestServer({ artifactsDir: dir, env: { ...env, ...nodeEnv }, clock, storeDir })
    cleanups.push(() => node.close())
    nodes.push(node)
  }
  const server = nodes[0]!
  const { api_key: key } = await server.createAccount('enterprise', 'hooks')
  const call = async (method: string, pathName: string, body?: unknown, withKey = key) => {
    const response = await fetch(`${server.url}${pathName}`, {
      method,
      headers: { 'X-API-Key': withKey, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    return { status: response.status, body: response.status === 204 ? null : await response.json() }
  }
  const tick = () => Promise.all(nodes.map((node) => node.running.webhooks()!.tick()))
  // The snapshot served at start is the baseline: nothing is announced for it.
  await tick()
  const serve = async (id: string) => {
    await pointTo(dir, id)
    for (const node of nodes) expect((await node.running.reload('manual')).id).toBe(id)
  }
  const publish = async (id?: string) => {
    const added = await artifacts.add(id)
    await serve(added)
    return added
  }
  const receiver = async () => {
    const started = await startReceiver()
    cleanups.push(() => started.close())
    return started
  }
  const register = async (target: Receiver, secret = SECRET, withKey = key) => {
    const { status, body } = await call('POST', '/v1/webhooks', { url: target.url, secret }, withKey)
    expect(status, JSON.stringify(body)).toBe(201)
    return body.id as string
  }
  const deliveries = async (webhookId: string) => (await call('GET', `/v1/webhooks/${webhookId}/deliveries`)).body.deliveries
  return { dir, baseId, server, clock, key, call, tick, publish, serve, receiver, register, deliveries, removeSnapshot: (id: string) => rm(snapshotDir(dir, id), { recursive: true, force: true }) }
}
