// Pipeline figures for `make bench`: a full refresh into empty directories, a refresh with no
// changed sources, their peak RSS, and the size of one snapshot's files; then the same two
// refreshes the way production runs them, through the publisher replica (official URLs, a CONNECT
// proxy, a test CA; the second one answered by 304s), and once more with a boundary file of a
// million rows listed for GA.
import { readdir, rm, stat } from 'node:fs/promises'
import path from 'node:path'
import { readCurrentId, snapshotDir } from '../../snapshot-contract/snapshot-store.ts'
import { SST_BOUNDARY_URL } from '../../sources/descriptor.ts'
import { RateIndex } from '../../snapshot-contract/rate-index.ts'
import { loadCurrentSnapshot } from '../../snapshot-contract/snapshot-store.ts'
import { SST_BOUNDARY_LISTED, startOfficialPublishers } from '../support/official-publishers.ts'
import { iisListingHtml } from '../support/publisher-pages.ts'
import type { PublisherReplica } from '../support/publisher-replica.ts'
import { synthesizedBoundaryLines, writeZippedLines } from '../support/synthesized-boundary.ts'
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

/**
 * A full and a no-change refresh with no source setting, only HTTPS_PROXY and NODE_EXTRA_CA_CERTS;
 * then the same pair, into empty directories again, with a boundary file of a million rows listed
 * for GA (E8: real ones reach 1.13 M rows, 163.5 MB), zipped, binding GA's ZIPs as the first pair's
 * snapshot answers them.
 */
export async function replicaMeasures(): Promise<Measure[]> {
  const dir = await tempDir('bench-replica')
  const replica = await startOfficialPublishers(dir)
  const envIn = (sub: string) => ({ ...replica.env, TAXATLAS_DROPS: sharedPath('drops'), TAXATLAS_ARTIFACTS: path.join(dir, sub, 'artifacts'), TAXATLAS_BUILD: path.join(dir, sub, 'build') })
  try {
    const env = envIn('plain')
    const full = await timedRefresh(env, refreshProcessWithOnly)
    const unchanged = await timedRefresh(env, refreshProcessWithOnly)
    await listBoundaryFile(replica, dir, env.TAXATLAS_ARTIFACTS)
    const withBoundary = envIn('boundary')
    const boundaryFull = await timedRefresh(withBoundary, refreshProcessWithOnly)
    await assertBoundaryServed(withBoundary.TAXATLAS_ARTIFACTS)
    const boundaryUnchanged = await timedRefresh(withBoundary, refreshProcessWithOnly)
    return [
      { name: 'full refresh (publisher replica, proxy)', value: full.seconds, unit: 's', target: 60, better: 'lower' },
      // editions and files asked for with their validators; every answer a 304
      { name: 'no-change refresh (publisher replica)', value: unchanged.seconds, unit: 's', target: 10, better: 'lower' },
      { name: 'refresh peak RSS (publisher replica)', value: Math.max(full.peakMb, unchanged.peakMb), unit: 'MB', target: 1536, better: 'lower' },
      { name: `full refresh (publisher replica, ${BOUNDARY_ROWS_LABEL}-row boundary file)`, value: boundaryFull.seconds, unit: 's', target: 90, better: 'lower' },
      { name: 'no-change refresh (publisher replica, boundary file)', value: boundaryUnchanged.seconds, unit: 's', target: 10, better: 'lower' },
      { name: 'refresh peak RSS (publisher replica, boundary file)', value: Math.max(boundaryFull.peakMb, boundaryUnchanged.peakMb), unit: 'MB', target: 1536, better: 'lower' },
    ]
  } finally {
    await replica.close()
    await rm(dir, { recursive: true, force: true })
  }
}

const BOUNDARY_ROWS = 1_000_000
const BOUNDARY_ROWS_LABEL = '1 M'
const BOUNDARY_FILE = 'GAB2026Q2FEB16.zip'

/** The figure is of a refresh that read the file: GA must be served with it. */
async function assertBoundaryServed(artifacts: string): Promise<void> {
  const ga = (await loadCurrentSnapshot(artifacts))?.manifest.states.find((state) => state.code === 'GA')
  if (ga?.status !== 'ok' || !ga.sources.some((source) => source.name === BOUNDARY_FILE)) {
    throw new Error(`GA was not served with ${BOUNDARY_FILE}: ${ga?.status} ${ga?.notes.join('; ')}`)
  }
}

/** GA's boundary file, synthesized from the snapshot in `artifacts`, served and listed on the replica's Boundary/ page. */
async function listBoundaryFile(replica: PublisherReplica, dir: string, artifacts: string): Promise<void> {
  const snapshot = await loadCurrentSnapshot(artifacts)
  if (!snapshot) throw new Error(`nothing published in ${artifacts}`)
  const index = new RateIndex(snapshot.files['rates.bin'])
  const entries = [...index.entriesOfState('GA')].map((i) => index.entryAt(i))
  const file = path.join(dir, BOUNDARY_FILE)
  await writeZippedLines(file, BOUNDARY_FILE.replace('.zip', '.csv'), synthesizedBoundaryLines(entries, '13', BOUNDARY_ROWS))
  replica.answer(`${SST_BOUNDARY_URL}${BOUNDARY_FILE}`, { kind: 'file', file })
  const { host, pathname } = new URL(SST_BOUNDARY_URL)
  replica.answer(SST_BOUNDARY_URL, { kind: 'page', html: iisListingHtml(host, pathname, [...SST_BOUNDARY_LISTED, BOUNDARY_FILE]) })
}
