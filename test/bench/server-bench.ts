// Server figures for `make bench`: start-up of the bundled server to its first answer with a full
// snapshot, and its resident memory then.
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { execa } from 'execa'
import { tempDir } from '../support/refresh-run.ts'
import { PROJECT_ROOT } from '../support/shared.ts'
import type { Measure } from './measure.ts'

const PORT = 18_480
// The start-up time is the median of these: one start slowed by a busy moment of a shared machine
// does not decide it.
const STARTS = 5

async function firstAnswer(url: string, deadline: number): Promise<void> {
  while (performance.now() < deadline) {
    const ok = await fetch(url).then((r) => r.ok, () => false)
    if (ok) return
    await new Promise((resolve) => setTimeout(resolve, 2))
  }
  throw new Error(`no answer from ${url}`)
}

export async function serverMeasures(artifacts: string): Promise<Measure[]> {
  await execa('make', ['-s', 'build/server/main.mjs'], { cwd: PROJECT_ROOT })
  const store = path.join(await tempDir('bench-store'), 'store.duckdb')
  const starts: number[] = []
  let rssMb = 0
  for (let run = 0; run < STARTS; run++) {
    const started = performance.now()
    const child = spawn(process.execPath, ['build/server/main.mjs'], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, PORT: String(PORT), TAXATLAS_ADMIN_PORT: String(PORT + 1), TAXATLAS_ARTIFACTS: artifacts, TAXATLAS_STORE: store },
      stdio: 'ignore',
    })
    try {
      await firstAnswer(`http://127.0.0.1:${PORT}/healthz`, started + 20_000)
      starts.push(performance.now() - started)
      // a key route waits for the store (DuckDB loads after listen): RSS is read at steady state
      await fetch(`http://127.0.0.1:${PORT}/v1/account`)
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8')
      rssMb = Math.max(rssMb, Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]) / 1024)
    } finally {
      child.kill('SIGTERM')
      await new Promise((resolve) => child.once('exit', resolve))
    }
  }
  starts.sort((a, b) => a - b)
  return [
    { name: `server start-up to first answer (median of ${STARTS})`, value: starts[Math.floor(STARTS / 2)], unit: 'ms', target: 500, better: 'lower' },
    { name: 'server RSS with the store open', value: rssMb, unit: 'MB', target: 300, better: 'lower' },
  ]
}
