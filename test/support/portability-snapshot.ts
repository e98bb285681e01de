// A real snapshot for the portability tests and bench: the pipeline run against the test mirror
// for GA (sales_or_transactions), CT (sales_and_transactions), DE (no sales tax) and MA
// (sales_only), built once per mirror and copied per test file. Also the real ZIPs it serves, so
// generated transactions pass the ZIP/state check.
import { cp, mkdir, mkdtemp, readdir, readFile, rename, rm, stat } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { FORMAT_VERSION } from '../../pipeline/format.ts'
import { RateIndex } from '../../pipeline/rate-index.ts'
import { readCurrentId, snapshotDir } from '../../pipeline/snapshot-store.ts'
import { refreshInto } from './server-snapshot.ts'

export const PORTABILITY_STATES = 'GA,CT,DE,MA'

const CACHE_ROOT = path.join(os.tmpdir(), 'taxatlas-portability-test-snapshots')
const STALE_CACHE_MS = 6 * 3_600_000

/** A temp artifacts directory with CURRENT pointing at a copy of the cached snapshot. */
export async function portabilityArtifacts(mirrorUrl: string): Promise<string> {
  // A new index format must not read an old build's snapshot.
  const cached = path.join(CACHE_ROOT, `v${FORMAT_VERSION}-${new URL(mirrorUrl).port}`)
  if (!(await readCurrentId(cached))) {
    await mkdir(CACHE_ROOT, { recursive: true })
    await removeStaleCaches()
    const building = `${cached}.tmp-${process.pid}`
    await rm(building, { recursive: true, force: true })
    await refreshInto(building, mirrorUrl, { states: PORTABILITY_STATES })
    // Another test file may have finished first; either copy is the same run's data.
    await rename(building, cached).catch(() => rm(building, { recursive: true, force: true }))
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), 'taxatlas-portability-artifacts-'))
  await cp(cached, dir, { recursive: true })
  return dir
}

/** Every ZIP the snapshot serves, by state (a straddling ZIP under each of its states). */
export async function servedZips(artifactsDir: string): Promise<Map<string, string[]>> {
  const id = await readCurrentId(artifactsDir)
  if (!id) throw new Error(`no snapshot in ${artifactsDir}`)
  const index = new RateIndex(new Uint8Array(await readFile(path.join(snapshotDir(artifactsDir, id), 'rates.bin'))))
  const byState = new Map<string, string[]>()
  for (let i = 0; i < index.zipEntryCount; i++) {
    const entry = index.entryAt(i)
    if (!byState.has(entry.state)) byState.set(entry.state, [])
    byState.get(entry.state)!.push(entry.zip)
  }
  return byState
}

async function removeStaleCaches() {
  for (const name of await readdir(CACHE_ROOT).catch(() => [] as string[])) {
    const entry = path.join(CACHE_ROOT, name)
    const info = await stat(entry).catch(() => null)
    if (info && Date.now() - info.mtimeMs > STALE_CACHE_MS) await rm(entry, { recursive: true, force: true })
  }
}
