// Where the earlier snapshots of the served one live: the artifacts directory it was published in.
// One EarlierSnapshots per directory, so the manifests and files it opened outlive a snapshot swap.
import type { Geocoder } from '../geocoder/geocode-match.ts'
import type { Snapshot } from '../snapshot/open-snapshot.ts'
import { EarlierSnapshots } from './earlier-snapshots.ts'
import type { LookupSources } from './resolve-lookup.ts'

const BY_DIRECTORY = new Map<string, EarlierSnapshots>()

export function earlierSnapshotsFor(snapshot: Pick<Snapshot, 'artifactsDir'>): EarlierSnapshots {
  let earlier = BY_DIRECTORY.get(snapshot.artifactsDir)
  if (!earlier) {
    earlier = new EarlierSnapshots(snapshot.artifactsDir)
    BY_DIRECTORY.set(snapshot.artifactsDir, earlier)
  }
  return earlier
}

/** What a lookup reads: the snapshot in service, the earlier ones beside it, the upstream geocoder if any. */
export const lookupSources = (snapshot: Snapshot, geocoder: Geocoder | undefined): LookupSources => ({
  snapshot,
  earlier: earlierSnapshotsFor(snapshot),
  geocoder,
})
