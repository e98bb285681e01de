// New Mexico TRD's GRT rates and boundaries CSV (docs/data-sources.md#new-mexico), the attribute
// table of its GIS boundary layer read by header name (found in the first rows, compared without
// case, spaces or punctuation): `OBJECTID_1, name, county, locat_cdr, locat_cd1, locat_cd2, grt_rate,
// note_key, bndry_ref, SHAPE_Leng, grt_rate2, Shape_Area`. One row per boundary polygon, so a location
// may have several rows; `grt_rate` is the location's TOTAL percent (the state portion included; the
// column's unit is decided from the state rate, rate-cells.ts), location codes are `NN-NNN`, each
// county's area outside its municipalities is a "Remainder of County - X" row. Tribal rows carry a
// second code in `locat_cd2` (with a class-2 rate in `grt_rate2`). Totals are printed to 1/10000 of a
// percent (7.8125), a digit finer than the served 1e-5: such a total is rounded half-up once, as a
// whole, so the state portion and the local remainder still add up to the answer; float noise past
// that (`7.81250000000001`, publisher-evidence E5) is dropped. A special district (Airport, TID,
// TIDD, …) can print a figure below the state rate: no location total, it is kept apart (`special`).
// A row that does not fit is set aside (set-aside.ts).
import Papa from 'papaparse'
import { formatRatePercent } from '../../../snapshot-contract/rate-units.ts'
import { findHeaderRow } from '../header-row.ts'
import { cellUnits, unitFromTotals } from '../rate-cells.ts'
import { SetAsideRows, wholeOrMore } from '../set-aside.ts'

const COLUMNS = { name: 'name', county: 'county', codeR: 'locat_cdr', code1: 'locat_cd1', code2: 'locat_cd2', rate: 'grt_rate', rate2: 'grt_rate2' } as const
const HEADER_SEARCH_ROWS = 10
const CODE = /^\d{2}-\d{3}$/
export const REMAINDER = /^Remainder of County\s*-\s*(.+)$/i

export type NmLocation = {
  line: number
  code: string
  name: string
  county: string
  /** the total percent of gross receipts in 1e-5 units (a `special` row's figure, below the state rate) */
  rate: number
  /** the total had a digit finer than 1e-5, rounded half-up */
  rounded: boolean
  kind: 'remainder' | 'municipality' | 'tribal' | 'special'
}
export type NmGrtFile = { fileName: string; locations: NmLocation[]; rowsRead: number; setAside: SetAsideRows }

export function parseNmGrtFile(text: string, fileName: string, stateRate: number): NmGrtFile {
  const data = Papa.parse<string[]>(text, { header: false, skipEmptyLines: 'greedy' }).data
  const header = findHeaderRow(data, fileName, { columns: COLUMNS, searchRows: HEADER_SEARCH_ROWS, what: 'the GRT rates and boundaries table' })
  const records = data.slice(header.at + 1)
  const cell = (record: string[], column: keyof typeof COLUMNS) => (record[header.index[column]] ?? '').trim()
  const unit = unitFromTotals(records.map((r) => cell(r, 'rate')).filter((v) => v !== ''), stateRate, `${fileName} grt_rate`)
  const byCode = new Map<string, NmLocation>()
  const setAside = new SetAsideRows(fileName)
  records.forEach((record, i) => {
    const line = header.at + i + 2
    const where = `line ${line}`
    const code = cell(record, 'codeR') || cell(record, 'code1')
    const name = cell(record, 'name')
    // a row set aside names its county, by its remainder name where it is one (compile.ts)
    const locality = REMAINDER.test(name) ? name : cell(record, 'county') || null
    if (!CODE.test(code)) return setAside.add(where, `location code ${JSON.stringify(code)} is not NN-NNN`, undefined, locality)
    const rate = cellUnits(cell(record, 'rate'), unit)
    if (typeof rate === 'string') return setAside.add(where, `${code} grt_rate ${rate}`, undefined, locality)
    const whole = wholeOrMore(rate.units)
    if (whole) return setAside.add(where, `${code} grt_rate ${whole}`, undefined, locality)
    const kind = cell(record, 'code2') !== '' ? 'tribal' : rate.units < stateRate ? 'special' : REMAINDER.test(name) ? 'remainder' : 'municipality'
    const location: NmLocation = { line, code, name, county: cell(record, 'county'), rate: rate.units, rounded: rate.rounded, kind }
    const seen = byCode.get(code)
    if (!seen) byCode.set(code, location)
    else if (seen.rate !== location.rate || seen.county !== location.county) {
      setAside.add(where, `${code} (${name}) at ${formatRatePercent(location.rate)}% in ${location.county}, line ${seen.line} gives it ${formatRatePercent(seen.rate)}% in ${seen.county}`)
    }
  })
  setAside.assertWithinShare(records.length)
  if (byCode.size === 0) throw new Error(`${fileName}: no location rows${setAside.count ? ` (${setAside.notes()[0]})` : ''}`)
  return { fileName, locations: [...byCode.values()], rowsRead: records.length, setAside }
}
