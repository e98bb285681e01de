// Colorado from DOR's DR 1002 workbook (docs/data-sources.md#colorado). Each row is one
// jurisdiction code of a named place in one county, with the taxes levied there: the state's 2.9%,
// the county's, the city's (a home-rule city collects its own, its rate in the file all the same;
// one without it fails the file) and the special districts' (RTD, CD, RTA, …). A row is bound by
// rule through the Census geography: its County names the county; a row with a City tax binds to the
// Census place of its Location Code in that county, a row with none whose name is its county's (or
// says unincorporated) to the county's land outside places. One place (or county part) can carry
// several codes — Aurora has five — whose districts differ street by street: codes at different
// rates answer as several candidates of the ZIP sharing that part equally (ambiguous), never one
// picked. A row that binds to no place is listed as unplaced. A county whose every row was set aside
// answers the state rate alone, its rows counted as left out; a county no row names fails the file.
import type { Geography } from '../../../snapshot-contract/geography-model.ts'
import type { FeedResult, JurisdictionRef, UnplacedJurisdiction } from '../../../snapshot-contract/model.ts'
import { formatRate } from '../../../snapshot-contract/rate-units.ts'
import { editionOnlyResult } from '../state-totals.ts'
import { leftOutOf } from '../set-aside.ts'
import { countiesRated } from '../set-aside-counties.ts'
import { countiesByMatchKey, countyCode, countyMatchKey, JurisdictionTable } from '../candidate-weights.ts'
import type { CoJurisdiction, CoRateWorkbook } from './workbook.ts'
import { placeBoundCandidates, placeBoundNotes, placeNamedIn, statePlacesByKey, type PlaceTail, type Variants } from '../place-bound-candidates.ts'

const STATE = 'CO'
const STATE_FIPS = '08'
const UNINCORPORATED = /\(?\bunincorporated\b\)?/i
const is = (tax: { type: string }, type: string) => tax.type.toLowerCase() === type

export type CompileCoInput = { workbook: CoRateWorkbook; stateRate: number; geography: Geography; edition: string }

/** One code's taxes above the state's and the county's: its city's and its districts', with their sum. */
type Tail = { code: string; refs: JurisdictionRef[]; signature: string; rate: number }

export function compileCoRates({ workbook, stateRate, geography, edition }: CompileCoInput): FeedResult {
  const { fileName } = workbook
  const rowsRead = workbook.rows.length + workbook.setAside.count
  const table = new JurisdictionTable({ state: STATE, from: null, to: null, source: fileName })
  const stateRef = table.add('state', STATE_FIPS, 'Colorado', stateRate)
  const counties = countiesByMatchKey(geography, STATE)
  const byKey = statePlacesByKey(geography, STATE)
  const countyRates = new Map<string, { rate: number; row: CoJurisdiction }>()
  const tails = new Map<string, Tail[]>()
  const unplaced: UnplacedJurisdiction[] = []
  for (const row of workbook.rows) {
    const at = `${fileName} row ${row.row}: ${row.code} (${row.name})`
    const county = counties.get(countyMatchKey(row.county))
    if (!county) {
      workbook.setAside.add(`row ${row.row}`, `${row.code} (${row.name}): County ${JSON.stringify(row.county)} is no Colorado county of the geography`)
      continue
    }
    const city = row.taxes.filter((t) => is(t, 'city'))
    // A home-rule city collecting its own tax with no City rate here: its rate is not in the file, and answering without it would be a silent zero.
    if (row.selfCollected && city.length === 0) {
      workbook.setAside.add(`row ${row.row}`, `${row.code} (${row.name}): a self-collected home-rule city with no City rate in the file`, undefined, row.county)
      continue
    }
    const countyRate = row.taxes.filter((t) => is(t, 'county')).reduce((sum, t) => sum + t.rate, 0)
    const seen = countyRates.get(county.fips)
    if (seen && seen.rate !== countyRate) throw new Error(`${at}: ${county.name} County at ${formatRate(countyRate)}, row ${seen.row.row} (${seen.row.code}) says ${formatRate(seen.rate)}`)
    countyRates.set(county.fips, { rate: countyRate, row })
    const districts = row.taxes.filter((t) => !is(t, 'state') && !is(t, 'county') && !is(t, 'city'))
    const countyArea = city.length === 0 && (UNINCORPORATED.test(row.name) || countyMatchKey(row.name.replace(UNINCORPORATED, '').trim()) === countyMatchKey(county.name))
    const place = countyArea ? null : placeNamedIn(byKey, row.name, county.fips)
    const above = [...city, ...districts]
    const rate = above.reduce((sum, t) => sum + t.rate, 0)
    if (!countyArea && !place) {
      unplaced.push({ level: city.length ? 'city' : 'district', code: row.code, name: row.name, rate, counties: [county.fips], reason: `${row.code} binds to no Census place named ${row.name} in ${county.name} County` })
      continue
    }
    const refs = above.map((tax) => table.add(is(tax, 'city') ? 'city' : 'district', is(tax, 'city') ? row.code : `${tax.type.toUpperCase()}-${row.code}`, is(tax, 'city') ? row.name : `${tax.type} (${row.name})`, tax.rate))
    const key = place ? `${place.geoid}|${county.fips}` : county.fips
    tails.set(key, [...(tails.get(key) ?? []), { code: row.code, refs, rate, signature: above.map((t) => `${t.type.toLowerCase()}:${t.rate}`).sort().join(',') }])
  }
  workbook.setAside.assertWithinShare(rowsRead)
  // a county whose every row was set aside has no county layer: the state rate alone
  const setAsideFips = workbook.setAside.namedLocalities().flatMap((name) => counties.get(countyMatchKey(name))?.fips ?? [])
  const rated = countiesRated({ fileName, geography, state: STATE, noun: 'Colorado counties', rated: countyRates, setAside: setAsideFips })
  for (const [fips, { rate }] of countyRates) table.add('county', countyCode(fips), geography.counties.get(fips)!.name, rate)
  const variants = (key: string): Tail[] => distinct(tails.get(key) ?? [])
  const { candidates, noCounty } = placeBoundCandidates({
    geography,
    state: STATE,
    stateRef,
    countyRef: rated.countyRef,
    countyTail: (fips) => {
      const found = variants(fips)
      return found.length ? asVariants(found.map((tail) => tail.refs)) : []
    },
    placeTail: (geoid, fips) => {
      const found = variants(`${geoid}|${fips}`)
      const name = geography.places.get(geoid)!.name
      return found.length ? asVariants<PlaceTail>(found.map((tail) => ({ name, refs: tail.refs }))) : null
    },
  })
  const ambiguous = [...tails.keys()].filter((key) => variants(key).length > 1)
  const selfCollected = workbook.rows.filter((r) => r.selfCollected).length
  const noCountyArea = [...countyRates.keys()].filter((fips) => !tails.has(fips)).map((fips) => geography.counties.get(fips)!.name)
  const notes = [`CO model: ${fileName}, ${workbook.rows.length} jurisdiction codes, rates read as ${workbook.unit === 'percent' ? 'percent numbers' : 'fractions'} (the unit under which the State cells read as the ${formatRate(stateRate)} state rate): county by the County column, city and districts of each code by the Census place of its Location Code in that county`]
  if (ambiguous.length) notes.push(`${ambiguous.length} places or county parts carry codes at different rates: each answers every one of them as a candidate (ambiguous)`)
  if (selfCollected) notes.push(`${selfCollected} codes are self-collected home-rule cities: their rates are answered as the file gives them, their tax bases are their own`)
  if (noCountyArea.length) notes.push(`${noCountyArea.length} counties have no row outside places: their land outside places answers state and county only (${noCountyArea.slice(0, 5).join(', ')})`)
  notes.push(...rated.notes, ...workbook.setAside.notes())
  notes.push(...placeBoundNotes(STATE, 'jurisdiction codes', unplaced.length, noCounty))
  return editionOnlyResult({ table, candidates, unplaced, edition, rowsRead, rowsParsed: rowsRead - workbook.setAside.count, notes, ...leftOutOf(workbook.setAside.leftOut()) })
}

/** One tail per distinct set of taxes, the least total first. */
function distinct(tails: Tail[]): Tail[] {
  const bySignature = new Map<string, Tail>()
  for (const tail of tails) if (!bySignature.has(tail.signature)) bySignature.set(tail.signature, tail)
  return [...bySignature.values()].sort((a, b) => a.rate - b.rate || a.code.localeCompare(b.code))
}

const asVariants = <T extends object>(tails: T[]): T | Variants<T> => (tails.length === 1 ? tails[0]! : { variants: tails })
