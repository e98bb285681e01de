// When taxatlas first saw a rate change: the earliest snapshot whose data for the state held it. The
// snapshots published before the served one in its artifacts directory are read oldest first; a
// snapshot that carried a state's data forward (after a failed or skipped refresh) names the one
// that produced it (data_from_snapshot), and that one is what saw it. A later snapshot is never
// read, so after a rollback nothing is dated by a snapshot the service has gone back from.
//
// Published snapshots never change, so what is read of one (its manifest, and the change
// identities of each state) is kept per artifacts directory and outlives a swap; only a couple of
// rates indexes stay open at a time.
import { changeIdentity, rateChangesOfState } from '../../snapshot-contract/rate-changes.ts'
import { RateIndex } from '../../snapshot-contract/rate-index.ts'
import { listSnapshotIds, readSnapshotFile } from '../../snapshot-contract/snapshot-store.ts'
import { aligned, type Snapshot } from '../snapshot/open-snapshot.ts'
import { PublishedManifests } from '../snapshot/published-manifests.ts'
import { memoPerState } from './snapshot-memo.ts'

/**
 * `exact`: false when the snapshot is the oldest held with data of the state, so an earlier one no
 * longer held may have seen it first; `published_at`: when that snapshot was generated, if known.
 */
export type FirstSeen = { snapshot: string; published_at: string | null; exact: boolean }

export type FirstSeenOf = (change: Parameters<typeof changeIdentity>[0]) => FirstSeen

const OPEN_INDEXES_KEPT = 2

class HeldSnapshots {
  readonly manifests: PublishedManifests
  readonly #indexes = new Map<string, Promise<RateIndex | null>>()
  readonly #identities = new Map<string, Promise<ReadonlySet<string> | null>>()

  constructor(readonly dir: string) {
    this.manifests = new PublishedManifests(dir)
  }

  /** The identities of the changes a snapshot's data holds for a state; null when it cannot be read. */
  identities(id: string, state: string): Promise<ReadonlySet<string> | null> {
    const key = `${id}|${state}`
    let found = this.#identities.get(key)
    if (!found) {
      found = this.#index(id)
        .then((rates) => (rates?.states.includes(state) ? new Set(rateChangesOfState(rates, state).map(changeIdentity)) : null))
        .catch(() => null)
      this.#identities.set(key, found)
    }
    return found
  }

  /** A rates index that fails verification is treated as absent. */
  #index(id: string): Promise<RateIndex | null> {
    let index = this.#indexes.get(id)
    if (index) {
      this.#indexes.delete(id)
    } else {
      index = this.manifests.of(id).then(async (manifest) => {
        const file = manifest?.files.find((f) => f.name === 'rates.bin')
        if (!file) return null
        return new RateIndex(aligned(await readSnapshotFile(this.dir, id, file)), `${id}/rates.bin`)
      }).catch(() => null)
    }
    this.#indexes.set(id, index)
    while (this.#indexes.size > OPEN_INDEXES_KEPT) this.#indexes.delete(this.#indexes.keys().next().value!)
    return index
  }
}

const BY_DIRECTORY = new Map<string, HeldSnapshots>()

/** For one state of the served snapshot, when each of its changes was first seen. */
export const firstSeenOf = memoPerState('changes first seen', buildTable)

async function buildTable(snapshot: Snapshot, state: string): Promise<FirstSeenOf> {
  let held = BY_DIRECTORY.get(snapshot.artifactsDir)
  if (!held) BY_DIRECTORY.set(snapshot.artifactsDir, (held = new HeldSnapshots(snapshot.artifactsDir)))
  const listed = await listSnapshotIds(snapshot.artifactsDir)
  // A directory that does not hold the served snapshot is not its artifacts directory.
  const earlier = listed.includes(snapshot.id) ? listed.filter((id) => id < snapshot.id) : []

  const seen = new Map<string, FirstSeen>()
  const dataRead = new Set<string>()
  let heldBefore = false
  const record = async (dataId: string, identities: Iterable<string>) => {
    const published_at = (await held.manifests.of(dataId))?.generated_at ?? null
    for (const identity of identities) if (!seen.has(identity)) seen.set(identity, { snapshot: dataId, published_at, exact: heldBefore })
    dataRead.add(dataId)
    heldBefore = true
  }
  for (const id of earlier) {
    const data = (await held.manifests.of(id))?.states.find((s) => s.code === state)
    const dataId = data?.data_from_snapshot ?? id
    if (!data || dataRead.has(dataId)) continue
    const identities = await held.identities(id, state)
    if (identities) await record(dataId, identities)
  }

  const served = snapshot.manifest.states.find((s) => s.code === state)
  const servedDataId = served?.data_from_snapshot ?? snapshot.id
  const servedSeen: FirstSeen = {
    snapshot: servedDataId,
    published_at: servedDataId === snapshot.id ? snapshot.manifest.generated_at : ((await held.manifests.of(servedDataId))?.generated_at ?? served?.last_refreshed_at ?? null),
    exact: heldBefore,
  }
  return (change) => seen.get(changeIdentity(change)) ?? servedSeen
}
