// Pipeline figures for `make bench`: a full refresh into empty directories, a refresh with no
// changed sources, their peak RSS, and the size of one snapshot's files; then the same two
// refreshes the way production runs them, through the publisher replica (official URLs, a CONNECT
// proxy, a test CA; the second one answered by 304s).
import { readdir, rm, stat } from 'node:fs/promises'
import path from 'node:path'
import { readCurrentId, snapshotDir } from '../../snapshot-contract/snapshot-store.ts'
import { startOfficialPublishers } from '../support/official-publishers.ts'
import { refreshProcess, refreshProcessWithOnly, tempDir } from '../support/refresh-run.ts'
import { sharedPath } from '../support/shared.ts'
import type { Measure } from './measure.ts'

async function timedRefresh(env: Record<string, string>, runner = refreshProcess) {
  const started = performance.now()
  const run = await runner(env)
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
  return { measures: [...measures, ...(await replicaMeasures())], artifacts }
}

/** A full and a no-change refresh with no source setting, only HTTPS_PROXY and NODE_EXTRA_CA_CERTS. */
export async function replicaMeasures(): Promise<Measure[]> {
  const dir = await tempDir('bench-replica')
  const replica = await startOfficialPublishers(dir)
  try {
    const env = { ...replica.env, TAXATLAS_DROPS: sharedPath('drops'), TAXATLAS_ARTIFACTS: path.join(dir, 'artifacts'), TAXATLAS_BUILD: path.join(dir, 'build') }
    const full = await timedRefresh(env, refreshProcessWithOnly)
    const unchanged = await timedRefresh(env, refreshProcessWithOnly)
    return [
      { name: 'full refresh (publisher replica, proxy)', value: full.seconds, unit: 's', target: 60, better: 'lower' },
      // editions and files asked for with their validators; every answer a 304
      { name: 'no-change refresh (publisher replica)', value: unchanged.seconds, unit: 's', target: 10, better: 'lower' },
      { name: 'refresh peak RSS (publisher replica)', value: Math.max(full.peakMb, unchanged.peakMb), unit: 'MB', target: 1536, better: 'lower' },
    ]
  } finally {
    await replica.close()
    await rm(dir, { recursive: true, force: true })
  }
}
