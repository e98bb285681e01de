// Pipeline figures for `make bench`: a full refresh into empty directories, a refresh with no
// changed sources, their peak RSS, and the size of one snapshot's files.
import { readdir, stat } from 'node:fs/promises'
import path from 'node:path'
import { execa } from 'execa'
import { readCurrentId, snapshotDir } from '../../snapshot-contract/snapshot-store.ts'
import { tempDir } from '../support/refresh-run.ts'
import { PROJECT_ROOT, sharedPath } from '../support/shared.ts'
import type { Measure } from './measure.ts'

async function timedRefresh(env: Record<string, string>) {
  const started = performance.now()
  const run = await execa(process.execPath, ['--import', 'tsx', 'pipeline/main.ts'], { cwd: PROJECT_ROOT, env, reject: false })
  const seconds = (performance.now() - started) / 1000
  if (run.exitCode !== 0) throw new Error(`refresh failed:\n${run.stderr}`)
  const peakMb = Number(/peak RSS (\d+) MB/.exec(run.stderr)?.[1])
  return { seconds, peakMb }
}

export async function pipelineMeasures(): Promise<{ measures: Measure[]; artifacts: string }> {
  const artifacts = await tempDir('bench-artifacts')
  const env = {
    TAXATLAS_MIRROR: sharedPath('mirror'),
    TAXATLAS_DROPS: sharedPath('drops'),
    TAXATLAS_GEO: sharedPath('geo'),
    TAXATLAS_ARTIFACTS: artifacts,
    TAXATLAS_BUILD: await tempDir('bench-build'),
  }
  const full = await timedRefresh(env)
  const unchanged = await timedRefresh(env)
  const dir = snapshotDir(artifacts, (await readCurrentId(artifacts))!)
  let bytes = 0
  for (const name of await readdir(dir)) bytes += (await stat(path.join(dir, name))).size
  const mb = bytes / 1024 / 1024
  const measures: Measure[] = [
    { name: 'full refresh (mirror dir)', value: full.seconds, unit: 's', target: 60, better: 'lower' },
    // every source unchanged: editions discovered, files compared by hash, nothing re-parsed
    { name: 'no-change refresh', value: unchanged.seconds, unit: 's', target: 10, better: 'lower' },
    { name: 'refresh peak RSS', value: Math.max(full.peakMb, unchanged.peakMb), unit: 'MB', target: 1536, better: 'lower' },
    { name: 'snapshot size (all files)', value: mb, unit: 'MB', target: 60, better: 'lower' },
  ]
  return { measures, artifacts }
}
