// Order writes for `make bench`, on each store engine (the DuckDB file, and PostgreSQL on a
// throwaway server with its default durability): acknowledged orders per second from 50
// connections posting distinct orders to one bundled server, alone and while a 1M-row NDJSON
// backfill of another account streams into the same server. An order counts once its 201 is
// back, which the server sends only after its group commit.
import { spawn, type ChildProcess } from 'node:child_process'
import { createRequire } from 'node:module'
import { rm } from 'node:fs/promises'
import path from 'node:path'
import { execa } from 'execa'
import { readEndpointAt } from '../../server/admin/endpoint-file.ts'
import { ndjsonOf, postNdjson, type RowPlan } from '../support/portability-rows.ts'
import { servedZips } from '../support/served-zips.ts'
import { tempDir } from '../support/refresh-run.ts'
import { PROJECT_ROOT } from '../support/shared.ts'
import type { Measure } from './measure.ts'

const CONNECTIONS = 50
const ORDER_SECONDS = Number(process.env.BENCH_ORDER_SECONDS ?? 10)
const BACKFILL_ROWS = 1_000_000

type AutocannonResult = { duration: number; statusCodeStats: Record<string, { count: number }>; errors: number; timeouts: number }
type Request = { method: 'POST'; path: string; headers: Record<string, string>; body?: string; setupRequest?: (request: Request) => Request }
const autocannon = createRequire(import.meta.url)('autocannon') as (options: { url: string; connections: number; duration: number; requests: Request[]; timeout: number }) => PromiseLike<AutocannonResult>

export type BenchServer = { url: string; child: ChildProcess; account: (name: string) => Promise<string>; stop: () => Promise<void> }

/** The bundled server on `store` (a DuckDB file or a postgres:// URL), its enterprise rate limit lifted. */
export async function startBenchServer(artifacts: string, store: string, port: number): Promise<BenchServer> {
  await execa('make', ['-s', 'build/server/main.mjs'], { cwd: PROJECT_ROOT })
  const endpointDir = await tempDir('bench-store-endpoint')
  const endpointFile = path.join(endpointDir, 'admin.json')
  const child = spawn(process.execPath, ['build/server/main.mjs'], {
    cwd: PROJECT_ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      TAXATLAS_ADMIN_PORT: String(port + 1),
      TAXATLAS_ARTIFACTS: artifacts,
      TAXATLAS_STORE: store,
      TAXATLAS_ADMIN_ENDPOINT_FILE: endpointFile,
      TAXATLAS_TIERS: JSON.stringify({ enterprise: { rate_per_second: 10_000_000, burst: 10_000_000 } }),
    },
    stdio: 'ignore',
  })
  const exited = new Promise((resolve) => child.once('exit', resolve))
  const deadline = performance.now() + 60_000
  while ((await readEndpointAt(endpointFile))?.pid !== child.pid) {
    if (performance.now() > deadline || child.exitCode !== null) throw new Error('the bench server did not start')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  const admin = (await readEndpointAt(endpointFile))!
  return {
    url: `http://127.0.0.1:${port}`,
    child,
    account: async (name) => {
      const created = await fetch(`${admin.url}/admin/accounts`, {
        method: 'POST',
        headers: { 'x-admin-token': admin.token, 'content-type': 'application/json' },
        body: JSON.stringify({ name, tier: 'enterprise' }),
      })
      return ((await created.json()) as { api_key: string }).api_key
    },
    stop: async () => {
      child.kill('SIGTERM')
      await exited
      await rm(endpointDir, { recursive: true, force: true })
    },
  }
}

/** Acknowledged (2xx) orders per second from CONNECTIONS connections for `seconds`, each order new. */
async function ordersPerSecond(server: BenchServer, key: string, [state, zips]: [string, string[]], prefix: string, seconds: number): Promise<{ rate: number; failed: number }> {
  let n = 0
  const today = new Date().toISOString().slice(0, 10)
  const result = await autocannon({
    url: server.url,
    connections: CONNECTIONS,
    duration: seconds,
    timeout: 30,
    requests: [
      {
        method: 'POST',
        path: '/v1/portability/orders',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        setupRequest: (request) => {
          const i = n++
          const body = { transaction_id: `${prefix}-${i}`, transaction_date: today, to_country: 'US', to_zip: zips[i % zips.length], to_state: state, amount: `${(i % 500) + 1}.99`, shipping: '0', sales_tax: '0' }
          return { ...request, body: JSON.stringify(body) }
        },
      },
    ],
  })
  const count = (code: string) => result.statusCodeStats[code]?.count ?? 0
  const acknowledged = count('201') + count('200')
  return { rate: acknowledged / result.duration, failed: result.errors + result.timeouts + Object.entries(result.statusCodeStats).filter(([code]) => !code.startsWith('2')).reduce((t, [, s]) => t + s.count, 0) }
}

export type StoreTarget = { label: string; store: string }

/** Orders alone, then orders while a 1M-row backfill streams, on one engine. */
export async function orderMeasures(artifacts: string, target: StoreTarget, port: number): Promise<{ measures: Measure[]; notes: string[] }> {
  // The state with the most ZIPs in the snapshot (CA in a full one).
  const [state, zips] = [...(await servedZips(artifacts))].sort((a, b) => b[1].length - a[1].length)[0]
  const server = await startBenchServer(artifacts, target.store, port)
  const notes: string[] = []
  try {
    const orderKey = await server.account('bench orders')
    const alone = await ordersPerSecond(server, orderKey, [state, zips], 'alone', ORDER_SECONDS)

    const backfillKey = await server.account('bench backfill')
    const plan: RowPlan = { rows: BACKFILL_ROWS, zips: [[state, zips]], today: new Date().toISOString().slice(0, 10), days: 360 }
    let backfillDone = false
    const backfill = postNdjson(server.url, backfillKey, ndjsonOf(plan)).then(async (response) => {
      backfillDone = true
      return (await response.json()) as { accepted?: number }
    })
    // Under way first: the orders share the server with a stream already at full speed.
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    const during = await ordersPerSecond(server, orderKey, [state, zips], 'during', ORDER_SECONDS)
    if (backfillDone) notes.push(`${target.label}: the backfill ended before the ${ORDER_SECONDS} s of orders did`)
    const report = await backfill
    if (report.accepted !== BACKFILL_ROWS) notes.push(`${target.label}: the backfill accepted ${report.accepted} of ${BACKFILL_ROWS} rows`)
    for (const [name, run] of [['alone', alone], ['during the backfill', during]] as const) {
      if (run.failed) notes.push(`${target.label}: ${run.failed} orders ${name} failed or timed out`)
    }
    return {
      measures: [
        { name: `orders, ${CONNECTIONS} connections (${target.label})`, value: alone.rate, unit: 'orders/s', target: 1_000, better: 'higher' },
        { name: `orders during a 1M-row backfill (${target.label})`, value: during.rate, unit: 'orders/s', target: 500, better: 'higher' },
      ],
      notes,
    }
  } finally {
    await server.stop()
  }
}
