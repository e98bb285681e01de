// Where a return places a stored transaction: its ZIP (and the city sent with it) located in the
// data of its date as GET /v1/tax?zip=…&city=… would locate it (zip-location.ts): the ZIP entry
// of the state, the candidate the city names, else the ZIP's default (highest-weight) candidate.
// A ZIP the data cannot place is the lookup's refusal, kept with its reason. Each (data, ZIP,
// city) is located once per return.
import type { Candidate } from '../../../snapshot-contract/rate-index.ts'
import { HttpError } from '../../base/errors.ts'
import type { SnapshotView } from '../../lookup/snapshot-facts.ts'
import { ZipEntries } from '../../lookup/zip-entries.ts'
import { locateZip } from '../../lookup/zip-location.ts'

/** Why a transaction has no place in the return. */
export const UNASSIGNED_REASONS = ['unknown_zip', 'state_data_missing', 'rates_not_held', 'origin_without_from_zip', 'no_state_rate'] as const
export type UnassignedReason = (typeof UNASSIGNED_REASONS)[number]

export type Placed =
  | {
      ok: true
      candidate: Candidate
      /** every candidate of the ZIP entry that answered, the chosen one included */
      candidates: readonly Candidate[]
      /** the ZIP has several candidates and the city sent named none of them: the default one answered */
      defaultChoice: boolean
      /** the lookup's warnings about the place (codes and messages) */
      warnings: readonly { code: string; message: string }[]
    }
  | { ok: false; reason: UnassignedReason; message: string }

export class ReturnPlaces {
  readonly #placed = new Map<SnapshotView, Map<string, Placed>>()

  constructor(private readonly state: string) {}

  /** The place of `zip` (with `city`) in `view`, on `isoDate`. */
  place(view: SnapshotView, zip: string, city: string | null, isoDate: string): Placed {
    let byKey = this.#placed.get(view)
    if (!byKey) this.#placed.set(view, (byKey = new Map()))
    const key = `${zip}|${city ?? ''}`
    let placed = byKey.get(key)
    if (!placed) byKey.set(key, (placed = this.#locate(view, zip, city, isoDate)))
    return placed
  }

  #locate(view: SnapshotView, zip: string, city: string | null, isoDate: string): Placed {
    try {
      const located = locateZip(view, new ZipEntries(view), { zip5: zip, zip4: null, street: null, state: this.state, city: city?.trim() || null, via: 'zip5', isoDate })
      const candidate = located.entry.candidates[located.choice]!
      return {
        ok: true,
        candidate,
        candidates: located.entry.candidates,
        defaultChoice: located.entry.candidates.length > 1 && located.chosenBy === 'weight',
        warnings: located.warnings.map((w) => ({ code: w.code, message: w.message })),
      }
    } catch (error) {
      if (!(error instanceof HttpError)) throw error
      return { ok: false, reason: error.code === 'SERVICE_UNAVAILABLE' ? 'state_data_missing' : 'unknown_zip', message: error.message }
    }
  }
}
