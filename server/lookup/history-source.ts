// Where the earlier snapshots of the served one live. The served snapshot may name its artifacts
// directory; otherwise it is the server's setting, TAXATLAS_ARTIFACTS (default `artifacts`).
import path from 'node:path'
import { EarlierSnapshots } from './earlier-snapshots.ts'
import type { SnapshotView } from './snapshot-facts.ts'

type Served = SnapshotView & { readonly artifactsDir?: string }

const BY_DIRECTORY = new Map<string, EarlierSnapshots>()
const BY_SNAPSHOT = new WeakMap<Served, EarlierSnapshots>()

export function earlierSnapshotsFor(snapshot: Served): EarlierSnapshots {
  let earlier = BY_SNAPSHOT.get(snapshot)
  if (!earlier) {
    const dir = snapshot.artifactsDir ?? path.resolve(process.env.TAXATLAS_ARTIFACTS ?? 'artifacts')
    earlier = BY_DIRECTORY.get(dir) ?? new EarlierSnapshots(dir)
    BY_DIRECTORY.set(dir, earlier)
    BY_SNAPSHOT.set(snapshot, earlier)
  }
  return earlier
}
