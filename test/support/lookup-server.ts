// A real server on port 0 serving the lookup snapshots, with an enterprise key (no quota, a rate
// limit no test reaches) and a GET helper that returns status, headers and parsed body.
import { afterAll, beforeAll, inject } from 'vitest'
import type { Snapshot } from '../../server/snapshot/open-snapshot.ts'
import { startTestServer, type ManualClock, type TestServer } from './server-harness.ts'
import { lookupArtifacts, openLookupSnapshot, type LookupArtifacts } from './lookup-snapshots.ts'

export type LookupServer = {
  server: TestServer
  key: string
  get: (path: string, key?: string) => Promise<{ status: number; headers: Headers; body: any }>
  close: () => Promise<void>
}

/** `env`: more server settings, e.g. TAXATLAS_GEOCODER_URL or TAXATLAS_TIERS; `clock`: the server's, moved by the test. */
export async function startLookupServer(artifacts: Pick<LookupArtifacts, 'dir'>, env: Record<string, string> = {}, clock?: ManualClock): Promise<LookupServer> {
  const server = await startTestServer({ artifactsDir: artifacts.dir, env, clock })
  const { api_key: key } = await server.createAccount('enterprise')
  const get = async (path: string, withKey = key) => {
    const response = await fetch(`${server.url}${path}`, { headers: { 'X-API-Key': withKey } })
    return { status: response.status, headers: response.headers, body: await response.json() }
  }
  return {
    server,
    key,
    get,
    close: () => server.close(),
  }
}

/**
 * For the tests of one file: the lookup server on the lookup snapshots, started before them and
 * closed after, and the snapshot it serves, opened directly (what the tests compare answers with).
 */
export function servedLookups(): { readonly lookup: LookupServer; readonly snapshot: Snapshot } {
  const served = {} as { lookup: LookupServer; snapshot: Snapshot }
  beforeAll(async () => {
    const artifacts = await lookupArtifacts(inject('mirrorUrl'))
    served.snapshot = await openLookupSnapshot(artifacts)
    served.lookup = await startLookupServer(artifacts)
  })
  afterAll(async () => {
    await served.lookup?.close()
  })
  return served
}
