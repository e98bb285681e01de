// A state answered from its statutes (docs/data-sources.md#statute-tables): the rules table's state
// rate, and the local levies its descriptor's table sets by county or incorporated place, each over
// its dated window, bound to ZIPs through the Census geography as an official per-place file is
// (place-bound-candidates.ts). What the table cannot give is said, never left silent:
//   - a local tax no source publishes a rate for (an Idaho resort city's) is a city of rate 0 in the
//     place's stacks, listed as `unpublished` in rate_varies: its answers warn and are a lower bound;
//   - a table that carries no local tax of a state that has them (the statutory floor) adds one
//     district of rate 0 to every stack, listed the same way;
//   - a levy whose statutory end has passed with no newer row is listed as an unplaced tax of its
//     area (it may have been extended), and the notes say so.
import type { Geography } from '../../../snapshot-contract/geography-model.ts'
import type { FeedResult, JurisdictionRate, JurisdictionRef, Level, RateVaries, UnplacedJurisdiction } from '../../../snapshot-contract/model.ts'
import { formatRatePercent, parseRateFraction } from '../../../snapshot-contract/rate-units.ts'
import type { StateFacts } from '../../../sources/state-facts.ts'
import type { Levy, StatuteTable } from '../../../sources/statute-table.ts'
import { countyCode, countyName, placeCode, placeStacksNotes, placeStacksOf, withinZipCandidates } from '../candidate-weights.ts'
import { noCountyNotes, placeBoundCandidates } from '../place-bound-candidates.ts'
import { statutoryRates } from '../statutory-rates.ts'

export type CompileStatuteTableInput = {
  state: string
  stateName: string
  facts: StateFacts
  table: StatuteTable
  geography: Geography
  /** the run's day: a levy whose end lies before it, with no newer row, is reported */
  today: string
}

/** The district every answer of a floor carries, standing for the local taxes it leaves out. */
export const NOT_CARRIED_CODE = 'local'

type Area = { level: Level; code: string; counties: string[]; geoid: string | null }

const rateUnits = (text: string, where: string): number => {
  const parsed = parseRateFraction(text)
  if (!parsed.ok) throw new Error(`${where}: rate ${text}: ${parsed.reason}`)
  return parsed.units
}

/** What a levy is, its rate, window and citation: the jurisdiction's recorded source. */
function levySource(levy: Levy): string {
  const dates = [levy.from && `from ${levy.from}`, levy.to && `through ${levy.to}`].filter(Boolean).join(' ')
  return `${levy.tax} ${formatRatePercent(rateUnits(levy.rate, levy.name))}%${dates ? ` ${dates}` : ''} (${levy.citation})`
}

export function compileStatuteTable({ state, stateName, facts, table, geography, today }: CompileStatuteTableInput): FeedResult {
  const areasOf = (levy: Levy): { area: Area; name: string }[] => {
    if (!levy.everyCounty) return [{ area: areaOf(levy), name: levy.name }]
    const counties = [...geography.counties.values()].filter((county) => county.state === state)
    if (counties.length === 0) throw new Error(`${state} statute table, ${levy.name}: the geography has no ${state} county`)
    return counties.map((county) => ({ area: { level: 'county', code: countyCode(county.fips), counties: [county.fips], geoid: null }, name: county.name }))
  }
  const areaOf = (levy: { county?: string; place?: string; name: string }): Area => {
    if (levy.county !== undefined) {
      const county = geography.counties.get(levy.county)
      if (!county || county.state !== state) throw new Error(`${state} statute table, ${levy.name}: county ${levy.county} is no ${state} county of the geography`)
      return { level: 'county', code: countyCode(county.fips), counties: [county.fips], geoid: null }
    }
    const place = geography.places.get(levy.place!)
    if (!place || place.state !== state || place.kind !== 'incorporated') throw new Error(`${state} statute table, ${levy.name}: place ${levy.place} is no incorporated ${state} place of the geography`)
    return { level: 'city', code: placeCode(place.geoid), counties: place.counties.map((c) => c.fips), geoid: place.geoid }
  }

  const stateRates = statutoryRates(facts)
  const jurisdictions: JurisdictionRate[] = stateRates.map((window) => ({ ...window, state, level: 'state', code: state, name: stateName }))
  const stateRef: JurisdictionRef = { level: 'state', code: state }
  const windowsOf = new Map<string, { area: Area; name: string; levies: Levy[] }>()
  for (const levy of table.levies) {
    for (const { area, name } of areasOf(levy)) {
      const key = `${area.level}|${area.code}`
      const entry = windowsOf.get(key) ?? { area, name, levies: [] }
      entry.levies.push(levy)
      windowsOf.set(key, entry)
    }
  }
  const notes: string[] = [
    ...stateRates.map((window) => `statutory ${window.source}`),
    ...table.levies.map((levy) => `statutory ${levy.name}: ${levySource(levy)}`),
  ]
  const unplaced: UnplacedJurisdiction[] = []
  for (const { area, name, levies } of windowsOf.values()) {
    const sorted = [...levies].sort((a, b) => (a.from ?? '').localeCompare(b.from ?? ''))
    sorted.forEach((levy, i) => {
      const next = sorted[i + 1]
      if (next && (levy.to === null || !next.from || next.from <= levy.to)) throw new Error(`${state} statute table, ${name}: the windows of ${levy.tax} and ${next.tax} overlap`)
      const rate = rateUnits(levy.rate, `${state} statute table, ${name}`)
      jurisdictions.push({ state, level: area.level, code: area.code, name, rate, from: levy.from, to: levy.to, source: levySource(levy) })
    })
    const last = sorted.at(-1)!
    if (last.to !== null && last.to < today) {
      const lapsed = `${last.tax} of ${name} ended ${last.to} by its statute and the table records no newer rule: it may have been extended; verify and update the state's descriptor`
      notes.push(`warning: ${lapsed}`)
      unplaced.push({ level: 'district', code: `${area.code}-after-${last.to}`, name: `${name} ${last.tax} (statutory end ${last.to} passed, no newer rule recorded)`, rate: rateUnits(last.rate, name), counties: area.counties, reason: lapsed })
    }
  }

  const rateVaries: RateVaries[] = []
  const cityOf = new Map<string, { name: string; ref: JurisdictionRef; counties: string[] }>()
  for (const { area, name } of windowsOf.values()) if (area.geoid) cityOf.set(area.geoid, { name, ref: { level: area.level, code: area.code }, counties: area.counties })
  for (const tax of table.unpublished) {
    const area = areaOf(tax)
    if (cityOf.has(area.geoid!)) throw new Error(`${state} statute table, ${tax.name}: both levied and listed as unpublished`)
    jurisdictions.push({ state, level: 'city', code: area.code, name: tax.name, rate: 0, from: null, to: null, source: `${tax.tax}: rate not published (${tax.citation})` })
    cityOf.set(area.geoid!, { name: tax.name, ref: { level: 'city', code: area.code }, counties: area.counties })
    rateVaries.push({ level: 'city', code: area.code, name: tax.name, kind: 'unpublished', lower_bound: true, exact_source: tax.exactSource, basis: `the ${tax.tax} of ${tax.name} is not included: its rate and scope are not published centrally (${tax.citation})` })
  }
  const localRefs: JurisdictionRef[] = []
  if (table.notCarried) {
    const { what, exactSource } = table.notCarried
    jurisdictions.push({ state, level: 'district', code: NOT_CARRIED_CODE, name: `${what} (not included)`, rate: 0, from: null, to: null, source: `statutory floor: ${what} not carried` })
    localRefs.push({ level: 'district', code: NOT_CARRIED_CODE })
    rateVaries.push({ level: 'district', code: NOT_CARRIED_CODE, name: what, kind: 'unpublished', lower_bound: true, exact_source: exactSource, basis: `the ${stateName} state rate only: ${what} are not included, since no source of them served this run` })
    notes.push(`statutory floor: the state rate only; ${what} are not included (their rates: ${exactSource})`)
  }

  const countyRef = (fips: string): JurisdictionRef | null => {
    const ref = { level: 'county' as const, code: countyCode(fips) }
    return windowsOf.has(`county|${ref.code}`) ? ref : null
  }
  const refs = (ref: JurisdictionRef | null) => (ref ? [ref] : [])
  const { candidates: bound, usedPlaces, noCounty } = placeBoundCandidates({
    geography,
    state,
    stateRef,
    countyRef,
    countyTail: () => localRefs,
    placeTail: (geoid) => {
      const city = cityOf.get(geoid)
      return city ? { name: city.name, refs: [city.ref, ...localRefs] } : null
    },
  })
  const placeStacks = [...cityOf].flatMap(([geoid, city]) =>
    placeStacksOf(geography, { geoid, name: city.name, counties: city.counties.filter((fips) => !usedPlaces.has(`${geoid}|${fips}`)) }, (fips) => [stateRef, ...refs(countyRef(fips)), city.ref, ...localRefs]),
  )
  const candidates = withinZipCandidates(geography, bound, placeStacks)

  notes.push(...noCountyNotes(state, noCounty))
  notes.push(...placeStacksNotes(placeStacks))
  for (const tax of table.unpublished) notes.push(`${tax.name}: ${tax.tax}, rate not published centrally; answered without it, with a warning naming the city (${tax.citation})`)
  notes.push(`statute table verified as of ${table.verifiedOn}`)
  for (const u of unplaced) notes.push(`${u.name} listed as a tax that may apply in ${u.counties!.map((fips) => countyName(geography, fips)).join(', ')}`)

  const starts = jurisdictions.map((j) => j.from).filter((from): from is string => from !== null)
  const latestStart = starts.reduce<string | null>((latest, from) => (!latest || from > latest ? from : latest), null)
  return {
    jurisdictions,
    candidates,
    ...(placeStacks.length ? { placeStacks } : {}),
    unplaced,
    ...(rateVaries.length ? { rateVaries } : {}),
    ...(table.coverageFrom ? { coverageFrom: table.coverageFrom } : {}),
    edition: table.verifiedOn,
    // A levy scheduled to start after the table's date is reflected through its start date.
    effectiveThrough: latestStart && latestStart > table.verifiedOn ? latestStart : table.verifiedOn,
    effectiveDateBasis: 'publisher_effective_date',
    rowsRead: table.levies.length + table.unpublished.length,
    rowsParsed: table.levies.length + table.unpublished.length,
    files: [],
    notes,
  }
}
