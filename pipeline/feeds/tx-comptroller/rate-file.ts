// The Texas Comptroller's EDI rate file taxrates.txt (docs/data-sources.md#texas): tab-separated,
// CRLF. Line 1 is a control record (`1`, YYYYQ, YYYYMM, "YYYY - Nth", state rate, 0, declared row
// count, message); filing-due-date rows (period kind `q` or `m`) follow; then one row of 12 fields
// per taxing area: four (name, code, rate) triples for the city, the county, and a transit
// authority and a special-purpose district, `n/a` where absent. Rates are decimal fractions.
//
// The file has no header, so each triple is known by its code family (2… city, 3… transit,
// 4… county, 5…/6… special-purpose district), never by position alone: the sources disagree on
// whether the transit or the district triple comes first in fields 7–12, and both orders are read.
import { parseRateFraction } from '../../../snapshot-contract/rate-units.ts'

export type TxLayer = 'city' | 'county' | 'transit' | 'spd'

export type TxTriple = { layer: TxLayer; name: string; code: string; rate: number | null }

export type TxArea = {
  line: number
  city: TxTriple | null
  county: TxTriple | null
  /** transit and district triples, in the order printed */
  districts: TxTriple[]
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
}

const FAMILY: Record<string, TxLayer> = { '2': 'city', '3': 'transit', '4': 'county', '5': 'spd', '6': 'spd' }
/** Tax Code 321.101(f): local taxes add up to at most 2%, so no one local rate is above it. */
const LOCAL_CAP = 2000
const ABSENT = /^n\/a$/i

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
  const rejected: string[] = []
  let filingRows = 0
  for (let i = 1; i < lines.length; i++) {
    const line = i + 1
    const fields = lines[i]!.split('\t').map(unquote)
    if (fields.length === 12) {
      const read = readArea(fields, line)
      if (typeof read === 'string') rejected.push(`line ${line}: ${read}`)
      else areas.push(read)
      continue
    }
    if (areas.length === 0 && fields.some((f) => f === 'q' || f === 'm')) {
      filingRows++
      continue
    }
    rejected.push(`line ${line}: ${fields.length} fields, neither a filing-due-date row (period kind q or m, before the areas) nor a 12-field area row`)
  }
  if (rejected.length) throw new Error(`${fileName}: ${rejected.length} row(s) rejected: ${rejected.slice(0, 5).join('; ')}`)
  if (areas.length === 0) throw new Error(`${fileName}: no area rows after the control record`)
  const declared = Number(control[6])
  const counts = [areas.length, areas.length + filingRows, lines.length]
  if (control[6] && Number.isInteger(declared) && !counts.includes(declared)) {
    throw new Error(`${fileName}: the control record declares ${declared} rows, the file holds ${areas.length} area rows (${lines.length} lines): truncated or joined`)
  }
  return { fileName, quarter, effectiveFrom: quarterStart(quarter), month: control[2]!, title: control[3] ?? '', stateRate: stateRate.units, filingRows, areas, rowsRead: lines.length - 1 }
}

function readArea(fields: string[], line: number): TxArea | string {
  const triples: (TxTriple | null)[] = []
  for (let t = 0; t < 4; t++) {
    const [name, code, rate] = fields.slice(t * 3, t * 3 + 3) as [string, string, string]
    if (ABSENT.test(code) || code === '') {
      triples.push(null)
      continue
    }
    const layer = /^\d+$/.test(code) ? FAMILY[code[0]!] : undefined
    if (!layer) return `code ${JSON.stringify(code)} (${name}) is of no known family (2… city, 3… transit, 4… county, 5…/6… district)`
    let units: number | null = null
    if (!ABSENT.test(rate)) {
      const parsed = parseRateFraction(rate)
      if (!parsed.ok) return `${name} (${code}): ${parsed.reason}`
      if (parsed.units > LOCAL_CAP) return `${name} (${code}) rate ${rate} is above the 2% local cap: a percent where a fraction is expected?`
      units = parsed.units
    }
    triples.push({ layer, name, code, rate: units })
  }
  const [city, county, ...rest] = triples
  if (city && city.layer !== 'city') return `fields 1–3 hold a ${city.layer} code ${city.code}, not a city code (2…)`
  if (county && county.layer !== 'county') return `fields 4–6 hold a ${county.layer} code ${county.code}, not a county code (4…)`
  const districts = rest.filter((t): t is TxTriple => t !== null)
  const misplaced = districts.find((t) => t.layer !== 'transit' && t.layer !== 'spd')
  if (misplaced) return `fields 7–12 hold a ${misplaced.layer} code ${misplaced.code}, not a transit (3…) or district (5…/6…) code`
  if (!city && !county) return 'neither a city nor a county'
  return { line, city, county, districts }
}
