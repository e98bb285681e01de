// A real in-process server over the portability snapshot, with a hand-moved clock and helpers to
// call the portability endpoints as an integration does (JSON over real HTTP).
import { rm } from 'node:fs/promises'
import { manualClock, startTestServer, type ManualClock, type TestServer } from './server-harness.ts'
import { portabilityArtifacts } from './portability-snapshot.ts'

export const TODAY = '2026-11-21'

export type PortabilityServer = TestServer & {
  clock: ManualClock
  artifactsDir: string
  /** a JSON request with the key; `body` is serialized unless it is a string */
  call: (key: string, method: string, path: string, body?: unknown) => Promise<{ status: number; body: any; headers: Headers }>
  dispose: () => Promise<void>
}

export async function startPortabilityServer(mirrorUrl: string, env: Record<string, string> = {}, states?: string): Promise<PortabilityServer> {
  const artifactsDir = await portabilityArtifacts(mirrorUrl, states)
  const clock = manualClock(`${TODAY}T15:00:00.000Z`)
  const server = await startTestServer({ artifactsDir, clock, env })
  const call = async (key: string, method: string, path: string, body?: unknown) => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: { 'X-API-Key': key, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    })
    const text = await response.text()
    return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers }
  }
  return {
    ...server,
    clock,
    artifactsDir,
    call,
    dispose: async () => {
      await server.close()
      await rm(artifactsDir, { recursive: true, force: true })
    },
  }
}

/** A valid order in GA (Atlanta), as a TaxJar integration sends it. */
export const gaOrder = (id: string, extra: Record<string, unknown> = {}) => ({
  transaction_id: id,
  transaction_date: '2026/10/01',
  to_country: 'US',
  to_zip: '30303',
  to_state: 'GA',
  amount: '19.99',
  shipping: '0.01',
  sales_tax: '1.60',
  ...extra,
})
