// The older editions a snapshot holds beside its data in service (Manifest.history: one rates index
// per aggregator edition of an earlier month). Each is opened on demand as a view of its own, with
// the snapshot's place and shape indexes, verified like the served files; only a few stay open.
// An edition whose file failed verification is left out (the snapshot's `history`): the dates it
// held are answered by nothing, never by the edition before it (whose rates had ended by then).
import type { HistoryLayer } from '../../snapshot-contract/manifest.ts'
import { RateIndex } from '../../snapshot-contract/rate-index.ts'
import { readSnapshotFile } from '../../snapshot-contract/snapshot-store.ts'
import { HistoryFiles } from '../snapshot/history-files.ts'
import { DerivedViews } from '../snapshot/derived-views.ts'
import { aligned } from '../snapshot/open-snapshot.ts'
import { factsOf, type Coverage, type SnapshotView } from './snapshot-facts.ts'

/** Opened editions kept in memory; each costs about the size of its rates index (a few MB). */
const OPEN_EDITIONS_KEPT = 4

export type HeldEdition = { view: SnapshotView; coverage: Coverage; edition: string }
/** The edition that holds the date is left out: its file failed verification. `from`: the first day it held. */
export type LeftOutEdition = { leftOut: string; from: string }

export class HeldEditions {
  readonly #open = new Map<string, Promise<SnapshotView | null>>()

  constructor(readonly artifactsDir: string) {}

  /**
   * The newest edition `current` holds whose data for `state` starts on or before `isoDate`: an
   * edition is valid from its first day until the next one held starts, so that is the one whose
   * window holds the date.
   */
  async covering(current: SnapshotView, state: string, isoDate: string): Promise<HeldEdition | LeftOutEdition | null> {
    const layers = [...current.manifest.history].sort((a, b) => b.edition.localeCompare(a.edition))
    for (const layer of layers) {
      const record = layer.states.find((s) => s.code === state)
      // Edition-dated data starts on its edition date, its effective_through.
      if (!record?.effective_through || record.effective_through > isoDate) continue
      const view = current.history.isLeftOut(layer) ? null : await this.#view(current, layer)
      if (!view) return { leftOut: layer.edition, from: record.effective_through }
      if (factsOf(view).serves(state)) return { view, coverage: factsOf(view).coverage(state), edition: layer.edition }
    }
    return null
  }

  /** The first day any edition `current` holds for `state` starts, if it holds any. */
  earliestFrom(current: SnapshotView, state: string): string | null {
    const starts = current.manifest.history.filter((layer) => !current.history.isLeftOut(layer)).flatMap((layer) => layer.states.filter((s) => s.code === state && s.effective_through).map((s) => s.effective_through!))
    return starts.length ? starts.sort()[0]! : null
  }

  /** An edition whose file fails verification is left out of `current` (until a check finds it sound). */
  #view(current: SnapshotView, layer: HistoryLayer): Promise<SnapshotView | null> {
    const key = `${current.id}|${layer.edition}`
    let view = this.#open.get(key)
    if (view) {
      // Most recently used last, so the oldest entry is the first one evicted.
      this.#open.delete(key)
    } else {
      view = readSnapshotFile(this.artifactsDir, current.id, layer.file)
        .then((bytes) => ({
          id: `${current.id}/${layer.edition}`,
          manifest: { ...current.manifest, states: layer.states, history: [] },
          rates: new RateIndex(aligned(bytes), `${current.id}/${layer.file.name}`),
          places: current.places,
          shapes: current.shapes,
          history: HistoryFiles.none(),
          derived: new DerivedViews(),
        }))
        .catch((error: Error) => {
          this.#open.delete(key)
          current.history.failed(layer, error.message, Date.now())
          return null
        })
    }
    this.#open.set(key, view)
    while (this.#open.size > OPEN_EDITIONS_KEPT) this.#open.delete(this.#open.keys().next().value!)
    return view
  }
}
