// Portability figures for `make bench`, against the bundled server on the full snapshot: a
// 1M-row NDJSON backfill streamed over loopback (generated on the fly from the snapshot's real
// ZIPs, as an integration's export would arrive) — rows per second and the server's peak RSS —
// then nexus health for that account of 1M transactions (median of 7 calls).
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { execa } from 'execa'
import { readEndpointFile } from '../../server/admin/endpoint-file.ts'
import { tempDir } from '../support/refresh-run.ts'
import { ndjsonOf, postNdjson, type RowPlan } from '../support/portability-rows.ts'
import { servedZips } from '../support/portability-snapshot.ts'
import { PROJECT_ROOT } from '../support/shared.ts'
import type { Measure } from './measure.ts'

const PORT = 18_490
const ROWS = 1_000_000
const HEALTH_CALLS = 7

const rssOf = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024

export async function portabilityMeasures(artifacts: string): Promise<Measure[]> {
  await execa('make', ['-s', 'build/server/main.mjs'], { cwd: PROJECT_ROOT })
  const store = path.join(await tempDir('bench-portability-store'), 'store.duckdb')
  const url = `http://127.0.0.1:${PORT}`
  const child = spawn(process.execPath, ['build/server/main.mjs'], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, PORT: String(PORT), TAXATLAS_ADMIN_PORT: String(PORT + 1), TAXATLAS_ARTIFACTS: artifacts, TAXATLAS_STORE: store },
    stdio: 'ignore',
  })
  const exited = new Promise((resolve) => child.once('exit', resolve))
  try {
    const deadline = performance.now() + 30_000
    while ((await readEndpointFile(store))?.pid !== child.pid) {
      if (performance.now() > deadline || child.exitCode !== null) throw new Error('the bench server did not start')
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    const admin = (await readEndpointFile(store))!
    const created = await fetch(`${admin.url}/admin/accounts`, {
      method: 'POST',
      headers: { 'x-admin-token': admin.token, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'bench', tier: 'enterprise' }),
    })
    const { api_key: key } = (await created.json()) as { api_key: string }

    const plan: RowPlan = { rows: ROWS, zips: [...(await servedZips(artifacts))], today: new Date().toISOString().slice(0, 10), days: 360 }
    let peakRss = rssOf(child.pid!)
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssOf(child.pid!))), 100)
    const started = performance.now()
    const response = await postNdjson(url, key, ndjsonOf(plan))
    const report = (await response.json()) as { accepted?: number }
    const seconds = (performance.now() - started) / 1000
    clearInterval(sampler)
    if (report.accepted !== ROWS) throw new Error(`the bench backfill accepted ${report.accepted} of ${ROWS} rows: ${JSON.stringify(report).slice(0, 500)}`)

    const latencies: number[] = []
    for (let call = 0; call < HEALTH_CALLS; call++) {
      const t0 = performance.now()
      const health = await fetch(`${url}/v1/portability/nexus/health`, { headers: { 'X-API-Key': key } })
      await health.json()
      latencies.push(performance.now() - t0)
      if (!health.ok) throw new Error(`nexus health answered ${health.status}`)
    }
    latencies.sort((a, b) => a - b)
    return [
      { name: 'backfill, 1M-row NDJSON stream', value: ROWS / seconds, unit: 'rows/s', target: 20_000, better: 'higher' },
      { name: 'server peak RSS during the backfill', value: peakRss, unit: 'MB', target: 800, better: 'lower' },
      { name: `nexus health, 1M transactions (median of ${HEALTH_CALLS})`, value: latencies[HEALTH_CALLS >> 1], unit: 'ms', target: 300, better: 'lower' },
    ]
  } finally {
    child.kill('SIGTERM')
    await exited
  }
}
