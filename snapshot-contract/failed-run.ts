// A refresh run that failed as a whole (its geography could not be fetched, the process crashed
// or was stopped) changes no data, but says so: the snapshot in service is published again with
// the states the run was to refresh marked `failed`, their data and last_refreshed_at unchanged.
// Written by the pipeline when it fails, and by the server when its scheduled child dies.
import type { Manifest, StateRecord } from './manifest.ts'
import { loadCurrentSnapshot, publishSnapshot } from './snapshot-store.ts'

export const RUN_FAILED_NOTE = 'refresh run failed, previous data kept'

/** Unaffected by a failed run: nothing of theirs is fetched. */
const UNTOUCHED = new Set<StateRecord['status']>(['static', 'maintenance'])

/** Publishes the failure; null when there is no snapshot to keep serving. */
export async function publishFailedRun(
  artifactsDir: string,
  failure: { reason: string; now: Date; states: readonly string[] | null },
): Promise<Manifest | null> {
  const previous = await loadCurrentSnapshot(artifactsDir)
  if (!previous) return null
  const nowIso = failure.now.toISOString()
  const note = `${RUN_FAILED_NOTE}: ${failure.reason}`
  const states = previous.manifest.states.map((record): StateRecord => {
    if (UNTOUCHED.has(record.status) || (failure.states && !failure.states.includes(record.code))) return record
    return { ...record, status: 'failed', notes: [note, ...record.notes.filter((n) => !n.startsWith(RUN_FAILED_NOTE))] }
  })
  const { files: _files, ...rest } = previous.manifest
  return publishSnapshot(
    artifactsDir,
    { ...rest, snapshot: nowIso.replace(/[:.]/g, '-'), generated_at: nowIso, states },
    previous.files,
  )
}
