// Portability figures for `make bench`, against the bundled server on the full snapshot, on each
// store engine: a 1M-row NDJSON backfill streamed over loopback (generated on the fly from the
// snapshot's real ZIPs, as an integration's export would arrive) — rows per second and the
// server's peak RSS — then nexus health for that account of 1M transactions (median of 7 calls).
import { readFileSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import path from 'node:path'
import { tempDir } from '../support/refresh-run.ts'
import { ndjsonOf, postNdjson, type RowPlan } from '../support/portability-rows.ts'
import { servedZips } from '../support/served-zips.ts'
import type { Measure } from './measure.ts'
import { startBenchServer, type StoreTarget } from './store-bench.ts'

const PORT = 18_490
const ROWS = 1_000_000
const HEALTH_CALLS = 7

const rssOf = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024

/** The backfill and nexus health on one engine: the DuckDB file by default, or `target`'s store. */
export async function portabilityMeasures(artifacts: string, target: StoreTarget | null = null): Promise<Measure[]> {
  const ownDir = target ? null : await tempDir('bench-portability-store')
  const store = target?.store ?? path.join(ownDir!, 'store.duckdb')
  const label = target ? ` (${target.label})` : ''
  const server = await startBenchServer(artifacts, store, PORT)
  const pid = server.child.pid!
  try {
    const key = await server.account('bench')
    const plan: RowPlan = { rows: ROWS, zips: [...(await servedZips(artifacts))], today: new Date().toISOString().slice(0, 10), days: 360 }
    let peakRss = rssOf(pid)
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssOf(pid))), 100)
    const started = performance.now()
    const response = await postNdjson(server.url, key, ndjsonOf(plan))
    const report = (await response.json()) as { accepted?: number }
    const seconds = (performance.now() - started) / 1000
    clearInterval(sampler)
    if (report.accepted !== ROWS) throw new Error(`the bench backfill accepted ${report.accepted} of ${ROWS} rows: ${JSON.stringify(report).slice(0, 500)}`)

    const latencies: number[] = []
    for (let call = 0; call < HEALTH_CALLS; call++) {
      const t0 = performance.now()
      const health = await fetch(`${server.url}/v1/portability/nexus/health`, { headers: { 'X-API-Key': key } })
      await health.json()
      latencies.push(performance.now() - t0)
      if (!health.ok) throw new Error(`nexus health answered ${health.status}`)
    }
    latencies.sort((a, b) => a - b)
    // The PostgreSQL targets are the scale-out issue's; the DuckDB ones are the embedded store's.
    return [
      { name: `backfill, 1M-row NDJSON stream${label}`, value: ROWS / seconds, unit: 'rows/s', target: target ? 50_000 : 20_000, better: 'higher' },
      { name: `server peak RSS during the backfill${label}`, value: peakRss, unit: 'MB', target: 800, better: 'lower' },
      { name: `nexus health, 1M transactions (median of ${HEALTH_CALLS})${label}`, value: latencies[HEALTH_CALLS >> 1], unit: 'ms', target: target ? 100 : 300, better: 'lower' },
    ]
  } finally {
    await server.stop()
    if (ownDir) await rm(ownDir, { recursive: true, force: true })
  }
}
