// Real snapshots for the lookup tests, built once per vitest run in the run's cache and shared
// read-only: an earlier snapshot holding TX from the 2018-04 drop only, then the
// snapshot in service with every state (newest drops, SST files, CDTFA workbook, statutes).
import { mkdir, mkdtemp, readFile, rm, symlink } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import Papa from 'papaparse'
import { listSnapshotIds, readCurrentId } from '../../snapshot-contract/snapshot-store.ts'
import type { ZipEntry } from '../../snapshot-contract/rate-index.ts'
import { openSnapshot, type Snapshot } from '../../server/snapshot/open-snapshot.ts'
import { pipelineSettings, runRefresh } from './refresh-run.ts'
import { buildOnce } from './run-cache.ts'
import { sharedPath } from './shared.ts'
import { runCacheDir } from './temp-dirs.ts'

/** The state whose earlier edition is held in an earlier snapshot, and that edition. */
export const HISTORY_STATE = 'TX'
export const HISTORY_EDITION = '201804'

export type LookupArtifacts = { dir: string; currentId: string; earlierId: string }

async function dropsOf(edition: string, states: string[]): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), `taxatlas-lookup-drops-${edition}-`))
  await mkdir(path.join(dir, edition))
  for (const state of states) {
    const name = `TAXRATES_ZIP5_${state}${edition}.csv`
    await symlink(sharedPath('drops/avalara-zip5', edition, name), path.join(dir, edition, name))
  }
  return dir
}

async function build(dir: string, mirrorUrl: string): Promise<void> {
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'taxatlas-lookup-build-'))
  const older = await dropsOf(HISTORY_EDITION, [HISTORY_STATE])
  try {
    const earlier = await runRefresh(
      pipelineSettings({ mirror: mirrorUrl, artifacts: dir, build: scratch, drops: older, states: HISTORY_STATE, now: '2026-11-20T03:00:00.000Z' }),
    )
    if (!earlier.manifest) throw new Error(`earlier snapshot not published: ${earlier.reason}`)
    const current = await runRefresh(pipelineSettings({ mirror: mirrorUrl, artifacts: dir, build: scratch, now: '2026-11-21T03:00:00.000Z' }))
    if (!current.manifest) throw new Error(`current snapshot not published: ${current.reason}`)
  } finally {
    await rm(scratch, { recursive: true, force: true })
    await rm(older, { recursive: true, force: true })
  }
}

/** The shared artifacts directory; CURRENT names the all-states snapshot. Do not write into it. */
export async function lookupArtifacts(mirrorUrl: string): Promise<LookupArtifacts> {
  const dir = runCacheDir('lookup-snapshots')
  await buildOnce(dir, (building) => build(building, mirrorUrl))
  const currentId = (await readCurrentId(dir))!
  const earlier = (await listSnapshotIds(dir)).filter((id) => id !== currentId)
  if (earlier.length !== 1) throw new Error(`expected one earlier snapshot in ${dir}, found ${earlier.join(', ') || 'none'}`)
  return { dir, currentId, earlierId: earlier[0]! }
}

export const openLookupSnapshot = (artifacts: LookupArtifacts, id = artifacts.currentId): Promise<Snapshot> =>
  openSnapshot(artifacts.dir, id, Date.now())

/** A real ZIP of the state whose candidates (one per county holding its addresses) differ in combined rate on the date. */
export function ambiguousZip(snapshot: Snapshot, state: string, isoDate: string): ZipEntry {
  for (const i of snapshot.rates.entriesOfState(state)) {
    const entry = snapshot.rates.entryAt(i)
    const rates = new Set(entry.candidates.map((c) => snapshot.rates.combinedRate(c.stack, isoDate)))
    if (entry.candidates.length > 1 && rates.size > 1) return entry
  }
  throw new Error(`no ambiguous ${state} ZIP`)
}

/** Per ZIP, the Avalara drop row of a state and edition, read straight from the file. */
export async function avalaraRows(state: string, edition: string): Promise<Map<string, Record<string, string>>> {
  const text = await readFile(sharedPath('drops/avalara-zip5', edition, `TAXRATES_ZIP5_${state}${edition}.csv`), 'utf8')
  const rows = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true }).data
  return new Map(rows.map((row) => [row.ZipCode!, row]))
}

/** A drop cell (`0.082500`, `0`) in 1e-5 units, half-up past the fifth decimal as the pipeline serves it. */
export function dropUnits(cell: string): number {
  const [whole, fraction = ''] = cell.trim().split('.')
  const kept = Number(`${whole}${fraction.slice(0, 5).padEnd(5, '0')}`)
  return kept + (Number(fraction[5] ?? '0') >= 5 ? 1 : 0)
}

/** The combined rate a drop row serves: the sum of its served parts. */
export const dropCombined = (row: Record<string, string>): number =>
  ['StateRate', 'EstimatedCountyRate', 'EstimatedCityRate', 'EstimatedSpecialRate'].reduce((sum, part) => sum + dropUnits(row[part]!), 0)
