// Earlier data, for dates before the data in service (drops and workbooks are effective from their
// edition date on): earlier published snapshots, and the older editions the served snapshot holds
// (held-editions.ts). Of those covering the date, the one whose data starts latest answers.
// Manifests are read on demand and kept; index files are opened lazily, verified like the served
// snapshot (size + sha256 per file), and only a few are kept open.
import { listSnapshotIds } from '../../snapshot-contract/snapshot-store.ts'
import { openSnapshot } from '../snapshot/open-snapshot.ts'
import { PublishedManifests } from '../snapshot/published-manifests.ts'
import { HeldEditions, type LeftOutEdition } from './held-editions.ts'
import { factsOf, type Coverage, type SnapshotView } from './snapshot-facts.ts'

/** Opened earlier snapshots kept in memory; each costs about the size of its index files. */
const OPEN_SNAPSHOTS_KEPT = 3

/** `edition`: set when an older edition held by the served snapshot answers, rather than an earlier snapshot. */
export type CoveringSnapshot = { view: SnapshotView; coverage: Coverage; edition?: string }

export type HistorySearch =
  | { found: true; snapshot: CoveringSnapshot }
  /**
   * `earliestFrom`: the first day any earlier snapshot's data for the state covers, if any was seen;
   * `leftOut`: the edition the served snapshot holds for the date, left out as its file failed verification
   */
  | { found: false; earliestFrom: string | null; leftOut?: LeftOutEdition }

export class EarlierSnapshots {
  readonly #manifests: PublishedManifests
  readonly #open = new Map<string, Promise<SnapshotView | null>>()
  readonly #refused = new Set<string>()
  readonly #editions: HeldEditions

  constructor(readonly artifactsDir: string) {
    this.#editions = new HeldEditions(artifactsDir)
    this.#manifests = new PublishedManifests(artifactsDir)
  }

  /**
   * The earlier data for `state` that covers `isoDate` and starts latest: the newest earlier snapshot
   * covering it, or an older edition the served snapshot holds, whichever starts later (a tie goes to
   * the published snapshot). An edition that would answer but is left out answers nothing: no
   * data starting before it does either.
   */
  async covering(state: string, isoDate: string, current: SnapshotView): Promise<HistorySearch> {
    const [published, held] = await Promise.all([this.#earlierSnapshot(state, isoDate, current), this.#editions.covering(current, state, isoDate)])
    if (held && 'view' in held && (!published.found || startsLater(held.coverage.from, published.snapshot.coverage.from))) return { found: true, snapshot: held }
    const leftOut = held && 'leftOut' in held && (!published.found || startsLater(held.from, published.snapshot.coverage.from)) ? held : null
    if (published.found && !leftOut) return published
    const publishedFrom = published.found ? published.snapshot.coverage.from : published.earliestFrom
    const editionFrom = this.#editions.earliestFrom(current, state)
    return { found: false, earliestFrom: editionFrom ? min(publishedFrom, editionFrom) : publishedFrom, ...(leftOut ? { leftOut } : {}) }
  }

  /** The newest earlier snapshot whose data for `state` covers `isoDate` (the served one excluded). */
  async #earlierSnapshot(state: string, isoDate: string, current: SnapshotView): Promise<HistorySearch> {
    const currentData = factsOf(current).record(state)?.data_from_snapshot ?? current.id
    const seen = new Set<string>([currentData])
    let earliestFrom: string | null = null
    const listed = await listSnapshotIds(this.artifactsDir)
    // A directory that does not hold the served snapshot is not its artifacts directory.
    if (!listed.includes(current.id)) return { found: false, earliestFrom: null }
    const ids = listed.filter((id) => id !== current.id).reverse()
    for (const id of ids) {
      const record = (await this.#manifests.of(id))?.states.find((s) => s.code === state)
      if (!record?.edition || !record.effective_through) continue
      // Several snapshots carry the same state data forward after a failed or skipped refresh.
      const dataId = record.data_from_snapshot ?? id
      if (seen.has(dataId)) continue
      seen.add(dataId)
      // An edition-dated state starts on its edition date: no need to open files that start later.
      if (record.effective_date_basis === 'edition_only' && record.effective_through > isoDate) {
        earliestFrom = min(earliestFrom, record.effective_through)
        continue
      }
      const view = await this.#snapshot(id)
      if (!view || !factsOf(view).serves(state)) continue
      const coverage = factsOf(view).coverage(state)
      if (coverage.from === null || coverage.from <= isoDate) return { found: true, snapshot: { view, coverage } }
      earliestFrom = min(earliestFrom, coverage.from)
    }
    return { found: false, earliestFrom }
  }

  /** A snapshot that fails verification is treated as absent (and not retried). */
  #snapshot(id: string): Promise<SnapshotView | null> {
    if (this.#refused.has(id)) return Promise.resolve(null)
    let view = this.#open.get(id)
    if (view) {
      // Most recently used last, so the oldest entry is the first one evicted.
      this.#open.delete(id)
    } else {
      view = openSnapshot(this.artifactsDir, id, Date.now()).catch(() => {
        this.#refused.add(id)
        return null
      })
    }
    this.#open.set(id, view)
    while (this.#open.size > OPEN_SNAPSHOTS_KEPT) this.#open.delete(this.#open.keys().next().value!)
    return view
  }
}

const min = (a: string | null, b: string): string => (a === null || b < a ? b : a)

/** True when data starting on `a` starts after data starting on `b` (null: open, the earliest). */
const startsLater = (a: string | null, b: string | null): boolean => a !== null && (b === null || a > b)
