// Real snapshots for server tests: the pipeline's refresh() run against the test mirror (in the
// test's process, or as a child process). The first call in a vitest run builds one (GA, CT, DE)
// and keeps it for the run in the run's cache; each test file gets its own copy, so tests may move
// pointers and publish freely.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { writeAtomically } from '../../snapshot-contract/file-bytes.ts'
import { Manifest } from '../../snapshot-contract/manifest.ts'
import { refresh, type Reporter } from '../../pipeline/run/refresh.ts'
import { readPipelineSettings } from '../../pipeline/settings.ts'
import { pointerPath, readCurrentId, snapshotDir } from '../../snapshot-contract/snapshot-store.ts'
import { refreshProcess } from './refresh-run.ts'
import { buildOnce } from './run-cache.ts'
import { sharedPath } from './shared.ts'
import { runCacheDir, tempDir } from './temp-dirs.ts'

const silent: Reporter = { start() {}, state() {}, info() {}, finish() {} }

type RefreshOptions = { states?: string; now?: string }

/** Runs a real refresh into `artifactsDir` and returns the published manifest. */
export function refreshInto(artifactsDir: string, mirrorUrl: string, options: RefreshOptions = {}): Promise<Manifest> {
  return withBuildDir(async (buildDir) => {
    const result = await refresh(readPipelineSettings(refreshEnv(artifactsDir, mirrorUrl, buildDir, options)), silent)
    if (!result.manifest) throw new Error(`refresh published nothing: ${result.reason}`)
    return result.manifest
  })
}

/**
 * The same refresh as its own process, as `make refresh` runs it, for a test whose process also
 * hosts the server: in-process, the pipeline would hold the server's event loop for seconds.
 */
export function refreshInChild(artifactsDir: string, mirrorUrl: string, options: RefreshOptions = {}): Promise<Manifest> {
  return withBuildDir(async (buildDir) => {
    const run = await refreshProcess(refreshEnv(artifactsDir, mirrorUrl, buildDir, options))
    if (run.exitCode !== 0) throw new Error(`refresh failed (exit ${run.exitCode}):\n${run.stderr}`)
    const id = await readCurrentId(artifactsDir)
    return Manifest.parse(JSON.parse(await readFile(path.join(snapshotDir(artifactsDir, id!), 'manifest.json'), 'utf8')))
  })
}

const refreshEnv = (artifactsDir: string, mirrorUrl: string, buildDir: string, options: RefreshOptions): Record<string, string> => ({
  TAXATLAS_MIRROR: mirrorUrl,
  TAXATLAS_DROPS: sharedPath('drops'),
  TAXATLAS_GEO: sharedPath('geo'),
  TAXATLAS_ARTIFACTS: artifactsDir,
  TAXATLAS_BUILD: buildDir,
  TAXATLAS_STATES: options.states ?? 'GA,CT,DE',
  ...(options.now ? { TAXATLAS_NOW: options.now } : {}),
})

async function withBuildDir<T>(work: (buildDir: string) => Promise<T>): Promise<T> {
  const buildDir = await mkdtemp(path.join(os.tmpdir(), 'taxatlas-server-build-'))
  try {
    return await work(buildDir)
  } finally {
    await rm(buildDir, { recursive: true, force: true })
  }
}

/** A temp artifacts directory holding a copy of this run's real snapshot, CURRENT pointing at it. */
export async function artifactsWithSnapshot(mirrorUrl: string): Promise<{ dir: string; id: string }> {
  const dir = await copyOfCachedArtifacts(mirrorUrl, { name: 'server' })
  const id = await readCurrentId(dir)
  if (!id) throw new Error(`cached artifacts copied to ${dir} have no CURRENT`)
  return { dir, id }
}

/**
 * Publishes `fromId`'s files again as snapshot `newId` and moves CURRENT to it; `corrupt` flips
 * one byte of rates.bin after the manifest recorded its sha256.
 */
export async function republish(artifactsDir: string, fromId: string, newId: string, options: { corrupt?: boolean } = {}): Promise<void> {
  const target = snapshotDir(artifactsDir, newId)
  await cp(snapshotDir(artifactsDir, fromId), target, { recursive: true })
  const manifestFile = path.join(target, 'manifest.json')
  const manifest = JSON.parse(await readFile(manifestFile, 'utf8')) as Manifest
  await writeFile(manifestFile, JSON.stringify({ ...manifest, snapshot: newId }, null, 2))
  if (options.corrupt) {
    const ratesFile = path.join(target, 'rates.bin')
    const bytes = await readFile(ratesFile)
    bytes[bytes.length >> 1] ^= 0xff
    await writeFile(ratesFile, bytes)
  }
  await pointTo(artifactsDir, newId)
}

export const pointTo = (artifactsDir: string, id: string) => writeAtomically(pointerPath(artifactsDir), `${id}\n`)

/**
 * A snapshot built once for the test run and kept between test files: `cache` names its folder,
 * `states` limits the refresh to them.
 */
export type SnapshotCache = { name: string; states?: string }

/** A fresh temp artifacts directory (removed after the test file) holding a copy of the cached snapshot, CURRENT pointing at it. */
export async function copyOfCachedArtifacts(mirrorUrl: string, cache: SnapshotCache): Promise<string> {
  const cached = await cachedArtifacts(mirrorUrl, cache)
  const dir = await tempDir(`${cache.name}-artifacts`)
  await cp(cached, dir, { recursive: true })
  return dir
}

async function cachedArtifacts(mirrorUrl: string, cache: SnapshotCache): Promise<string> {
  const dir = runCacheDir(`${cache.name}-snapshots`)
  await buildOnce(dir, async (building) => {
    await refreshInto(building, mirrorUrl, cache.states ? { states: cache.states } : {})
  })
  return dir
}
