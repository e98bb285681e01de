// The Texas Comptroller's EDI rate file taxrates.txt (docs/data-sources.md#texas): tab-separated,
// CRLF. Line 1 is a control record (`1`, YYYYQ, YYYYMM, "YYYY - Nth", state rate, 0, declared row
// count, message); filing-due-date rows (period kind `q` or `m`, padded with empty fields to 12 in
// the real file) follow; then one row of 12 fields per taxing area: four (name, code, rate) triples,
// `n/a` where absent (an absent triple is also written `n/a ⇥ n/a ⇥ 0`). Rates are decimal
// fractions, as the control record's state rate is.
//
// The rows are not positional by kind (publisher-evidence E1): 111 rows of the 2026-Q3 file carry a
// special-district or assistance-district code (5…/6…) in fields 1–3, where a city code usually
// stands. So each triple is known by its code family (2… city, 3… transit, 4… county, 5…/6…
// special-purpose district), never by position: the sources disagree on the order of fields 7–12
// too. A county that levies nothing prints its name with code `n/a` (`Rusk ⇥ n/a ⇥ 0`): the name is
// kept, so the area can be placed in its county. A row that does not fit is set aside (set-aside.ts).
import { parseRateFraction } from '../../../snapshot-contract/rate-units.ts'
import { SetAsideRows, wholeOrMore } from '../set-aside.ts'

export type TxLayer = 'city' | 'county' | 'transit' | 'spd'

export type TxTriple = { layer: TxLayer; name: string; code: string; rate: number | null }

export type TxArea = {
  line: number
  city: TxTriple | null
  /** the county's coded triple; null where the area prints none, or only the county's name (with code n/a) */
  county: TxTriple | null
  /** the county the area lies in, as printed: its triple's name, or the name a county levying nothing prints with code n/a */
  countyName: string | null
  /** transit and district triples, in the order printed */
  districts: TxTriple[]
  /** the district whose code stands in fields 1–3, where a city's usually does (E1): the area is a district's part of its county */
  areaDistrict: TxTriple | null
}

export type TxRateFile = {
  fileName: string
  /** `2026Q3` from the control record's YYYYQ */
  quarter: string
  /** first day of that quarter: the day the rates take effect */
  effectiveFrom: string
  /** the control record's YYYYMM and title, kept for the notes */
  month: string
  title: string
  stateRate: number
  filingRows: number
  areas: TxArea[]
  rowsRead: number
  /** area rows that do not fit, counted and named */
  setAside: SetAsideRows
}

const FAMILY: Record<string, TxLayer> = { '2': 'city', '3': 'transit', '4': 'county', '5': 'spd', '6': 'spd' }
/** Tax Code 321.101(f): local taxes add up to at most 2%, so no one local rate is above it. */
const LOCAL_CAP = 2000
const ABSENT = /^n\/a$/i
const PERIOD_KIND = /^[qm]$/

/** First day of a `2026Q3` quarter. */
export const quarterStart = (quarter: string): string => `${quarter.slice(0, 4)}-${String((Number(quarter.slice(5)) - 1) * 3 + 1).padStart(2, '0')}-01`

const unquote = (field: string) => field.trim().replace(/^"(.*)"$/, '$1').trim()

export function parseTxRateFile(text: string, fileName: string): TxRateFile {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/)
  while (lines.length && lines.at(-1)!.trim() === '') lines.pop()
  if (lines.length === 0) throw new Error(`${fileName}: empty file`)
  const control = lines[0]!.split('\t').map(unquote)
  if (control[0] !== '1' || !/^\d{4}[1-4]$/.test(control[1] ?? '') || !/^\d{6}$/.test(control[2] ?? '')) {
    throw new Error(`${fileName} line 1: not the control record (1, YYYYQ, YYYYMM, …): ${JSON.stringify(lines[0]!.slice(0, 80))}`)
  }
  const stateRate = parseRateFraction(control[4] ?? '')
  if (!stateRate.ok) throw new Error(`${fileName} line 1: state rate ${stateRate.reason}`)
  if (stateRate.units >= 100_000) throw new Error(`${fileName} line 1: state rate ${control[4]} is not a fraction (a percent where a fraction is expected?)`)
  const quarter = `${control[1]!.slice(0, 4)}Q${control[1]!.slice(4)}`

  const areas: TxArea[] = []
  const setAside = new SetAsideRows(fileName)
  let filingRows = 0
  for (let i = 1; i < lines.length; i++) {
    const line = i + 1
    const fields = lines[i]!.split('\t').map(unquote)
    if (fields.every((f) => f === '')) continue
    // filing-due-date rows, before the areas: their period kind in field 1 or 2, padded to 12 fields or not
    if (areas.length === 0 && setAside.count === 0 && (PERIOD_KIND.test(fields[0]!) || PERIOD_KIND.test(fields[1] ?? ''))) {
      filingRows++
      continue
    }
    if (fields.length !== 12) {
      setAside.add(`line ${line}`, `${fields.length} fields, not the 12 of an area row`)
      continue
    }
    const read = readArea(fields, line)
    if (typeof read === 'string') setAside.add(`line ${line}`, read)
    else areas.push(read)
  }
  setAside.assertWithinShare(areas.length + setAside.count)
  if (areas.length === 0) throw new Error(`${fileName}: no area rows after the control record${setAside.count ? ` (${setAside.notes()[0]})` : ''}`)
  const declared = Number(control[6])
  const rows = areas.length + setAside.count
  const counts = [rows, rows + filingRows, lines.length]
  if (control[6] && Number.isInteger(declared) && !counts.includes(declared)) {
    throw new Error(`${fileName}: the control record declares ${declared} rows, the file holds ${rows} area rows (${lines.length} lines): truncated or joined`)
  }
  return { fileName, quarter, effectiveFrom: quarterStart(quarter), month: control[2]!, title: control[3] ?? '', stateRate: stateRate.units, filingRows, areas, rowsRead: lines.length - 1, setAside }
}

function readArea(fields: string[], line: number): TxArea | string {
  const triples: TxTriple[] = []
  let countyName: string | null = null
  let areaDistrict: TxTriple | null = null
  for (let t = 0; t < 4; t++) {
    const [name, code, rate] = fields.slice(t * 3, t * 3 + 3) as [string, string, string]
    if (ABSENT.test(code) || code === '') {
      // `Rusk ⇥ n/a ⇥ 0` where the county stands: a county levying nothing, known by its name
      if (t === 1 && name !== '' && !ABSENT.test(name)) countyName = name
      continue
    }
    const layer = /^\d+$/.test(code) ? FAMILY[code[0]!] : undefined
    if (!layer) return `code ${JSON.stringify(code)} (${name}) is of no known family (2… city, 3… transit, 4… county, 5…/6… district)`
    let units: number | null = null
    if (!ABSENT.test(rate) && rate !== '') {
      const parsed = parseRateFraction(rate)
      if (!parsed.ok) return `${name} (${code}): ${parsed.reason}`
      const whole = wholeOrMore(parsed.units)
      if (whole) return `${name} (${code}) rate ${whole}`
      if (parsed.units > LOCAL_CAP) return `${name} (${code}) rate ${rate} is above the 2% local cap, in a file whose state rate is a fraction: a percent where a fraction is expected?`
      units = parsed.units
    }
    const triple = { layer, name, code, rate: units }
    if (t === 0 && (layer === 'spd' || layer === 'transit')) areaDistrict = triple
    triples.push(triple)
  }
  const of = (layer: TxLayer) => triples.filter((t) => t.layer === layer)
  const [cities, counties] = [of('city'), of('county')]
  if (cities.length > 1) return `two city codes (${cities.map((c) => c.code).join(', ')})`
  if (counties.length > 1) return `two county codes (${counties.map((c) => c.code).join(', ')})`
  const [city = null, county = null] = [cities[0], counties[0]]
  if (county) countyName = county.name
  if (!city && !countyName) return 'neither a city nor a county'
  return { line, city, county, countyName, districts: triples.filter((t) => t.layer === 'transit' || t.layer === 'spd'), areaDistrict }
}
