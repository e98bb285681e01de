// An aggregator ZIP whose own row was set aside for its city's rate (pipeline/feeds/aggregator-defaults.ts):
// the answer says which row was set aside, what it would have answered, and why, and claims less.
import type { Candidate, RateIndex, ZipEntry } from '../../snapshot-contract/rate-index.ts'
import { formatRate } from '../../snapshot-contract/rate-units.ts'
import type { ConfidenceCap } from './located.ts'
import { warning, type WarningObject } from './lookup-warnings.ts'

export type RestatedDefault = { warnings: WarningObject[]; cap: ConfidenceCap }

const NONE: RestatedDefault = { warnings: [], cap: null }

/**
 * sub_zip_district (confidence at most low: an address inside the district pays the row's rate)
 * or neighbour_region (at most medium), when the answered candidate is the city's rate and the
 * ZIP's row is another candidate; nothing otherwise.
 */
export function restatedDefault(rates: RateIndex, entry: ZipEntry, choice: number, isoDate: string): RestatedDefault {
  const answered = entry.candidates[choice]!
  if (answered.basis !== 'usual_rate') return NONE
  const row = entry.candidates.find((c) => c.basis === 'sub_zip_district' || c.basis === 'neighbour_region')
  if (!row) return NONE
  const rateOf = (candidate: Candidate) => formatRate(rates.combinedRate(candidate.stack, isoDate))
  const city = answered.place?.name || entry.city
  const detail = { row_combined_rate: rateOf(row), answered_combined_rate: rateOf(answered) }
  if (row.basis === 'sub_zip_district') {
    const district = rates.authoritiesOn(row.stack, isoDate).find((a) => a.level === 'district')?.name ?? 'a special district'
    return {
      cap: 'low',
      warnings: [
        warning(
          'sub_zip_district',
          `The aggregator's figure for ZIP ${entry.zip} (${detail.row_combined_rate}) includes ${district}, which covers part of the ZIP; ` +
            `the rate the other ZIPs of ${city} in its county agree on (${detail.answered_combined_rate}) was answered. An address inside the district pays ${detail.row_combined_rate}.`,
          { district, ...detail },
        ),
      ],
    }
  }
  const region = row.place?.name ?? ''
  // No city in the answer: the ZIP lies in no city, and the row's city rate is a neighbour's.
  const answeredCity = rates.authoritiesOn(answered.stack, isoDate).some((a) => a.level === 'city')
  const answeredWhat = answeredCity ? `the rate the other ZIPs of ${city} in the county agree on` : `the rate of the ZIP's county without the neighbouring city's`
  return {
    cap: 'medium',
    warnings: [
      warning(
        'neighbour_region',
        `The aggregator files ZIP ${entry.zip} under the tax region ${region || 'of another county'} (${detail.row_combined_rate}), not the ZIP's own city or county (${entry.city}); ` +
          `${answeredWhat} (${detail.answered_combined_rate}) was answered.`,
        { region, ...detail },
      ),
    ],
  }
}
