// ZIPs whose official answer is only a lower bound: a record the official file flags as varying by
// address, answered with its county's record alone because the city's own taxes cannot be derived
// (RateVaries.lower_bound). Where the state's aggregator drop is at hand, the drop's combined rate
// for the ZIP is the default (an aggregator's figure, its rows labelled by their drop file) and the
// official lower bound stays a candidate of lower weight. Both stay listed as varying by address,
// so answers keep `rate_varies_by_address` naming the exact source, at low confidence.
import type { FeedResult, JurisdictionRate, RateVaries, ZipCandidate } from '../../snapshot-contract/model.ts'
import { formatRate } from '../../snapshot-contract/rate-units.ts'
import type { AvalaraRow } from './aggregator-drop.ts'
import { PREFERRED_SHARE } from './candidate-weights.ts'

export type LowerBoundInput = { rows: AvalaraRow[]; fileName: string; edition: string; editionDate: string }

export function aggregatorOverLowerBounds(result: FeedResult, input: LowerBoundInput): FeedResult {
  const lowerBounds = new Map((result.rateVaries ?? []).filter((v) => v.lower_bound).map((v) => [`${v.level}|${v.code}`, v]))
  if (lowerBounds.size === 0) return result
  const stateJurisdiction = result.jurisdictions.find((j) => j.level === 'state' && j.to === null)
  if (!stateJurisdiction) return result
  const rowOf = new Map(input.rows.map((row) => [row.zip, row]))
  const jurisdictions: JurisdictionRate[] = []
  const rateVaries: RateVaries[] = []
  let replaced = 0
  const candidates = result.candidates.flatMap((candidate): ZipCandidate[] => {
    const bound = candidate.stack.map((ref) => lowerBounds.get(`${ref.level}|${ref.code}`)).find(Boolean)
    const row = rowOf.get(candidate.zip)
    // a row at another state rate (a tribal area) is not this stack's figure
    if (!bound || !row || row.stateRate !== stateJurisdiction.rate) return [candidate]
    const code = `zip:${candidate.zip}${candidate.placeFips ? `:${candidate.placeFips}` : ''}${candidate.countyFips ? `:${candidate.countyFips}` : ''}`
    const local = row.countyRate + row.cityRate + row.specialRate
    const name = `${row.taxRegionName} local taxes (Avalara edition ${input.edition}, ZIP ${candidate.zip})`
    if (!jurisdictions.some((j) => j.code === code)) {
      jurisdictions.push({ state: candidate.state, level: 'district', code, name, rate: local, from: input.editionDate, to: null, source: input.fileName })
      rateVaries.push({
        level: 'district',
        code,
        name,
        kind: 'estimated',
        basis: `the default is the aggregator's figure, Avalara edition ${input.edition}'s combined rate for ZIP ${candidate.zip} (${formatRate(stateJurisdiction.rate + local)}): the official file gives only ${bound.basis.replace(/; the rate varies by address$/, '')}, which stays a candidate`,
        exact_source: bound.exact_source,
      })
    }
    replaced++
    const refs = candidate.stack.filter((ref) => ref.level === 'state' || ref.level === 'county' || ref.level === 'city')
    return [
      { ...candidate, stack: [...refs, { level: 'district', code }], weight: candidate.weight * PREFERRED_SHARE, basis: 'aggregator_figure' },
      { ...candidate, weight: candidate.weight * (1 - PREFERRED_SHARE), basis: 'lower_bound' },
    ]
  })
  if (replaced === 0) return result
  return {
    ...result,
    jurisdictions: [...result.jurisdictions, ...jurisdictions],
    candidates,
    rateVaries: [...(result.rateVaries ?? []), ...rateVaries],
    notes: [
      ...result.notes,
      `${replaced} ZIP candidates answered by a record flagged as varying by address whose official answer is only its county's rate (a lower bound): Avalara edition ${input.edition}'s combined rate for the ZIP is their default (an aggregator's figure), the official lower bound a candidate`,
    ],
  }
}
