// A real server for tests: startServer() on port 0 (public and admin), a real store — a DuckDB
// file in a temp directory, or with TAXATLAS_TEST_STORE=postgres (vitest.config.ts) a new database
// on the run's PostgreSQL server — logs captured in memory, and a clock the test moves by hand.
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { inject } from 'vitest'
import { endpointFilePath, readEndpointAt } from '../../server/admin/endpoint-file.ts'
import { memoryLogger } from '../../server/base/logger.ts'
import type { Route } from '../../server/dispatch/route.ts'
import { startServer, type RunningServer } from '../../server/server.ts'
import { readServerSettings } from '../../server/settings.ts'
import { createTestDatabase } from './postgres-server.ts'

export type ManualClock = { now: () => number; advance: (ms: number) => void; set: (ms: number) => void }

export function manualClock(startIso: string): ManualClock {
  let now = Date.parse(startIso)
  return { now: () => now, advance: (ms) => void (now += ms), set: (ms) => void (now = ms) }
}

export type TestServer = {
  url: string
  running: RunningServer
  logs: ReturnType<typeof memoryLogger>['entries']
  /** the DuckDB file (on PostgreSQL, where it would be: its admin endpoint file is beside it) */
  storePath: string
  /** an admin call through the loopback listener, as the admin command makes it */
  admin: (method: string, pathName: string, body?: unknown) => Promise<Response>
  createAccount: (tier: string, name?: string) => Promise<{ account_id: string; api_key: string; key_id: string }>
  close: () => Promise<void>
}

export async function startTestServer(options: {
  artifactsDir: string
  storeDir?: string
  clock?: ManualClock
  routes?: Route[]
  env?: Record<string, string>
}): Promise<TestServer> {
  const storeDir = options.storeDir ?? (await mkdtemp(path.join(os.tmpdir(), 'taxatlas-server-store-')))
  const storePath = path.join(storeDir, 'taxatlas.duckdb')
  // Where a DuckDB store's server puts its admin endpoint by default, and a PostgreSQL one is told to.
  const endpointFile = endpointFilePath(storePath)
  const postgres = process.env.TAXATLAS_TEST_STORE === 'postgres'
  const settings = readServerSettings({
    PORT: '0',
    TAXATLAS_ADMIN_PORT: '0',
    TAXATLAS_ARTIFACTS: options.artifactsDir,
    TAXATLAS_STORE: postgres ? await createTestDatabase(inject('postgresUrl'), 'harness') : storePath,
    ...(postgres ? { TAXATLAS_ADMIN_ENDPOINT_FILE: endpointFile } : {}),
    // No web console unless a test asks for one: every answer of the API is JSON.
    TAXATLAS_CONSOLE_DIR: '',
    ...options.env,
  })
  const logger = memoryLogger()
  const running = await startServer(settings, { logger, clock: options.clock?.now, routes: options.routes })
  // The store opens after listen; tests start from a server whose key routes and admin listener serve.
  if (!(await running.storeReady)) {
    await running.close()
    throw new Error(`the store did not open: ${JSON.stringify(logger.entries.find((e) => e.event === 'store_failed'))}`)
  }
  const endpoint = await readEndpointAt(endpointFile)
  if (!endpoint) throw new Error('the server wrote no admin endpoint file')
  const admin = (method: string, pathName: string, body?: unknown) =>
    fetch(`${endpoint.url}${pathName}`, {
      method,
      headers: { 'x-admin-token': endpoint.token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  return {
    url: running.url,
    running,
    logs: logger.entries,
    storePath,
    admin,
    createAccount: async (tier, name = `test ${tier}`) => {
      const response = await admin('POST', '/admin/accounts', { name, tier })
      if (response.status !== 201) throw new Error(`create account: ${response.status} ${await response.text()}`)
      return response.json()
    },
    close: async () => {
      await running.close()
      if (!options.storeDir) await rm(storeDir, { recursive: true, force: true })
    },
  }
}

export const withKey = (key: string): RequestInit => ({ headers: { 'X-API-Key': key } })
