// SIGTERM of a real server process under keep-alive load, as an orchestrator stops a node behind a
// balancer: it must stop accepting (its listener closed, every response after that marked
// `Connection: close` so clients take their next request elsewhere), answer what it accepted (a
// streamed backfill under way is completed), cut nothing, and exit. And a 413 for a declared
// oversized body, whose body never comes, must not hold the process after it stopped.
import http from 'node:http'
import { describe, expect, it } from 'vitest'
import { ndjsonOf, planRow, type RowPlan } from './support/portability-rows.ts'
import { servedZips } from './support/portability-snapshot.ts'
import { rawRequest } from './support/reliability-raw-http.ts'
import { storeProcessSuite } from './support/store-process-suite.ts'
import path from 'node:path'

// A grace period far longer than the drain needs: the drain must end it, not the timer. A request
// body deadline of an hour: a timer left behind by it would hold the process that long.
const suite = storeProcessSuite('reliability-shutdown', { TAXATLAS_SHUTDOWN_TIMEOUT_MS: '120000', TAXATLAS_REQUEST_TIMEOUT_MS: '3600000' })

const utcDay = (daysBack: number) => new Date(Date.now() - daysBack * 86_400_000).toISOString().slice(0, 10)

type Outcome = { status: number; connection: string | undefined; afterShutdown: boolean } | { error: string; reused: boolean; afterShutdown: boolean }

/** One GET on `agent`; its status and Connection header, or the error and whether it went on a reused connection. */
function get(url: string, key: string, agent: http.Agent, afterShutdown: boolean): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = http.get(url, { agent, headers: { 'x-api-key': key } }, (res) => {
      res.resume()
      res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, afterShutdown }))
      res.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message, reused: req.reusedSocket, afterShutdown }))
    })
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message, reused: req.reusedSocket, afterShutdown }))
  })
}

describe('SIGTERM under keep-alive load', () => {
  it('stops accepting, marks every later answer Connection: close, completes a streamed backfill under way, cuts nothing and exits', async () => {
    const server = await suite.start(path.join(suite.tmp, 'load', 'taxatlas.duckdb'))
    const { api_key: key } = await server.createAccount('enterprise')
    let shutdownSeen = false

    // Eight clients, one keep-alive connection each, sending their next lookup as soon as the last is answered.
    const clients = Array.from({ length: 8 }, () => new http.Agent({ keepAlive: true, maxSockets: 1 }))
    const outcomes: Outcome[][] = clients.map(() => [])
    let answered = 0
    const loops = clients.map(async (agent, i) => {
      for (;;) {
        const outcome = await get(`${server.url}/v1/tax/ga?zip=30303`, key, agent, shutdownSeen)
        outcomes[i]!.push(outcome)
        if ('error' in outcome) return
        answered++
        // Told to go elsewhere: one more try, on a new connection, must be refused.
        if (outcome.connection === 'close') {
          outcomes[i]!.push(await get(`${server.url}/v1/tax/ga?zip=30303`, key, agent, shutdownSeen))
          return
        }
      }
    })

    // A streamed backfill whose rows arrive in parts, the last ones after SIGTERM.
    const plan: RowPlan = { rows: 2_000, zips: [['GA', (await servedZips(suite.artifactsDir)).get('GA')!]], today: utcDay(1), days: 30, prefix: 'drain' }
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    async function* slowBody() {
      const rows = ndjsonOf(plan, (i) => planRow(plan, i))
      let parts = 0
      for await (const part of rows) {
        yield part
        if (++parts === 1) await held
      }
    }
    const backfill = fetch(`${server.url}/v1/portability/transactions/backfill`, {
      method: 'POST',
      headers: { 'X-API-Key': key, 'Content-Type': 'application/x-ndjson' },
      body: slowBody() as unknown as BodyInit,
      duplex: 'half',
    } as RequestInit)

    while (answered < 200) await new Promise((resolve) => setTimeout(resolve, 20))
    const exited = server.stop()
    await server.logged('shutting_down')
    shutdownSeen = true
    release()
    const drained = await backfill
    expect(drained.status).toBe(200)
    expect(drained.headers.get('connection')).toBe('close')
    expect(await drained.json()).toMatchObject({ accepted: plan.rows, rejected: 0 })
    await Promise.all(loops)
    for (const agent of clients) agent.destroy()
    expect(await exited).toBe(0)

    for (const [i, client] of outcomes.entries()) {
      const last = client.at(-1)!
      const beforeLast = client.at(-2)
      // The client was told to go elsewhere, then refused on a new connection; or its next request
      // met the connection closing as it sent it (a keep-alive race every client retries).
      const toldThenRefused = beforeLast !== undefined && 'status' in beforeLast && beforeLast.connection === 'close' && 'error' in last && last.error === 'ECONNREFUSED'
      const raced = 'error' in last && last.reused && ['ECONNRESET', 'ECONNREFUSED'].includes(last.error)
      expect({ client: i, ending: toldThenRefused || raced }).toEqual({ client: i, ending: true })
      // Nothing answered after the shutdown was logged kept its connection open, and nothing failed.
      for (const outcome of client) {
        if ('status' in outcome) expect(outcome.status).toBe(200)
        if ('status' in outcome && outcome.afterShutdown) expect(outcome.connection).toBe('close')
      }
    }
    expect(server.events().filter((e) => e.event === 'shutdown_connections_cut')).toEqual([])
    expect(server.events().at(-1)).toMatchObject({ event: 'stopped' })
  }, 240_000)
})

describe('a 413 for a declared oversized body', () => {
  it('holds nothing open: the process exits on SIGTERM though that body never came', async () => {
    const server = await suite.start(path.join(suite.tmp, 'too-large', 'taxatlas.duckdb'))
    const { api_key: key } = await server.createAccount('enterprise')
    const refused = await rawRequest(server.url, {
      method: 'POST',
      target: '/v1/portability/orders',
      headers: [['Host', 'localhost'], ['X-API-Key', key], ['Content-Type', 'application/json'], ['Content-Length', String(50 * 1024 * 1024)]],
      body: '{"transaction_id": "',
    })
    expect(refused.status).toBe(413)
    expect(await server.stop()).toBe(0)
    expect(server.events().at(-1)).toMatchObject({ event: 'stopped' })
  }, 120_000)
})
