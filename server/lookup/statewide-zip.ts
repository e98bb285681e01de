// A ZIP no served state lists (a PO-box or unique ZIP the HUD–USPS crosswalk lacks: Springfield, MA
// 01102; Baltimore 21275) in a state answered everywhere by one statutory rate: USPS assigns ZIP
// prefixes by state, so a prefix held only by that state's ZIPs places it there, and the state's one
// stack answers it. Every held edition's such ZIPs of those states have a prefix the crosswalk assigns.
import type { ZipEntry } from '../../snapshot-contract/rate-index.ts'
import { isStatewide } from '../../snapshot-contract/feed-traits.ts'
import { factsOf, type SnapshotView } from './snapshot-facts.ts'
import { warning, type WarningObject } from './lookup-warnings.ts'

/** The entry a statewide state gives a ZIP of its prefix that it does not list; null for any other ZIP. */
export function statewideZipEntry(view: SnapshotView, zip5: string): ZipEntry | null {
  const [state, ...others] = view.rates.statesOfZipPrefix(zip5.slice(0, 3))
  const record = state ? factsOf(view).record(state) : undefined
  if (!record || others.length > 0 || !isStatewide(record)) return null
  const model = listedOfPrefix(view, zip5.slice(0, 3), state)?.candidates[0]
  if (!model) return null
  return {
    zip: zip5,
    state,
    city: '',
    lat: null,
    lng: null,
    straddles: false,
    zcta: false,
    unlisted: true,
    candidates: [{ county: null, place: null, weight: 1, basis: 'published', stack: model.stack }],
  }
}

/** A listed ZIP of the prefix in the state (the prefix holds at most 100 ZIPs). */
function listedOfPrefix(view: SnapshotView, prefix: string, state: string): ZipEntry | undefined {
  for (let n = 0; n < 100; n++) {
    const entry = view.rates.lookupZip(`${prefix}${String(n).padStart(2, '0')}`).find((e) => e.state === state)
    if (entry) return entry
  }
  return undefined
}

/** Is `entry` one statewideZipEntry made (a statutory state's entries are otherwise all listed)? */
export function isStatewideZip(view: SnapshotView, entry: ZipEntry): boolean {
  const record = factsOf(view).record(entry.state)
  return entry.unlisted && record !== undefined && isStatewide(record)
}

export function statewideZipWarning(entry: ZipEntry): WarningObject {
  return warning(
    'zip_placed_by_prefix',
    `ZIP ${entry.zip} is not in the ZIP geography (a PO-box or unique ZIP); USPS assigns its prefix ${entry.zip.slice(0, 3)} to ${entry.state}, which levies one statutory rate at every address: that rate was answered.`,
    { prefix: entry.zip.slice(0, 3) },
  )
}
