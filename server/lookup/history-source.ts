// Where the earlier snapshots of the served one live: the artifacts directory it was published in.
// One EarlierSnapshots per directory, so the manifests and files it opened outlive a snapshot swap.
import type { Snapshot } from '../snapshot/open-snapshot.ts'
import { EarlierSnapshots } from './earlier-snapshots.ts'

const BY_DIRECTORY = new Map<string, EarlierSnapshots>()

export function earlierSnapshotsFor(snapshot: Pick<Snapshot, 'artifactsDir'>): EarlierSnapshots {
  let earlier = BY_DIRECTORY.get(snapshot.artifactsDir)
  if (!earlier) {
    earlier = new EarlierSnapshots(snapshot.artifactsDir)
    BY_DIRECTORY.set(snapshot.artifactsDir, earlier)
  }
  return earlier
}
