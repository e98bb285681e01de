// New Mexico TRD's GRT rates and boundaries CSV (docs/data-sources.md#new-mexico), the attribute
// table of its GIS boundary layer read by header name: `OBJECTID_1, name, county, locat_cdr,
// locat_cd1, locat_cd2, grt_rate, note_key, bndry_ref, SHAPE_Leng, grt_rate2, Shape_Area`. One row
// per boundary polygon, so a location may have several rows; `grt_rate` is the location's TOTAL
// percent (the state portion included), location codes are `NN-NNN`, each county's area outside its
// municipalities is a "Remainder of County - X" row. Tribal rows carry a second code in `locat_cd2`
// (with a class-2 rate in `grt_rate2`). Totals are printed to 1/10000 of a percent (7.8125), a
// digit finer than the served 1e-5: such a total is rounded half-up once, as a whole, so the state
// portion and the local remainder still add up to the answer.
import Papa from 'papaparse'
import { formatRatePercent } from '../../../snapshot-contract/rate-units.ts'

const COLUMNS = ['name', 'county', 'locat_cdr', 'locat_cd1', 'locat_cd2', 'grt_rate', 'grt_rate2'] as const
const CODE = /^\d{2}-\d{3}$/
const REMAINDER = /^Remainder of County\s*-\s*(.+)$/i
/** Above 20%, a GRT total is no percent (hundredths of a percent, or another figure). */
const MOST_PERCENT = 20
const PERCENT = /^(\d+)(?:\.(\d*))?$/

export type NmLocation = {
  line: number
  code: string
  name: string
  county: string
  /** the total percent of gross receipts in 1e-5 units */
  rate: number
  /** the total had a digit finer than 1e-5, rounded half-up */
  rounded: boolean
  kind: 'remainder' | 'municipality' | 'tribal'
}
export type NmGrtFile = { fileName: string; locations: NmLocation[]; rowsRead: number }

export function parseNmGrtFile(text: string, fileName: string): NmGrtFile {
  const parsed = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true, transformHeader: (h) => h.trim() })
  const fields = parsed.meta.fields ?? []
  const missing = COLUMNS.filter((c) => !fields.includes(c))
  if (missing.length) throw new Error(`${fileName}: header lacks ${missing.join(', ')} (found ${fields.slice(0, 8).join(', ') || 'nothing'}): not the GRT rates and boundaries table, or its header moved`)
  const byCode = new Map<string, NmLocation>()
  const rejected: string[] = []
  parsed.data.forEach((record, i) => {
    const line = i + 2
    const cell = (name: (typeof COLUMNS)[number]) => (record[name] ?? '').trim()
    const code = cell('locat_cdr') || cell('locat_cd1')
    if (!CODE.test(code)) return void rejected.push(`line ${line}: location code ${JSON.stringify(code)} is not NN-NNN`)
    const rate = totalUnits(cell('grt_rate'))
    if (typeof rate === 'string') return void rejected.push(`line ${line}: ${code} grt_rate ${JSON.stringify(cell('grt_rate'))} ${rate}`)
    const name = cell('name')
    const kind = cell('locat_cd2') !== '' ? 'tribal' : REMAINDER.test(name) ? 'remainder' : 'municipality'
    const location: NmLocation = { line, code, name, county: cell('county'), ...rate, kind }
    const seen = byCode.get(code)
    if (!seen) byCode.set(code, location)
    else if (seen.rate !== location.rate || seen.county !== location.county) {
      rejected.push(`line ${line}: ${code} (${name}) at ${formatRatePercent(location.rate)}% in ${location.county}, line ${seen.line} gives it ${formatRatePercent(seen.rate)}% in ${seen.county}`)
    }
  })
  if (rejected.length) throw new Error(`${fileName}: ${rejected.length} row(s) rejected: ${rejected.slice(0, 5).join('; ')}`)
  if (byCode.size === 0) throw new Error(`${fileName}: no location rows`)
  return { fileName, locations: [...byCode.values()], rowsRead: parsed.data.length }
}

/** A total percent of up to 4 decimals in 1e-5 units, its 6th decimal as a fraction rounded half-up; or why it is no GRT total. */
function totalUnits(text: string): { rate: number; rounded: boolean } | string {
  const match = PERCENT.exec(text)
  if (!match) return 'is not a percent'
  const [whole, decimals = ''] = [Number(match[1]), match[2]]
  if (whole === 0) return 'is below 1%: a fraction where a percent is expected?'
  if (whole > MOST_PERCENT) return `is above ${MOST_PERCENT}%: not a percent`
  if (/[1-9]/.test(decimals.slice(4))) return 'has more than 4 decimals'
  // percent × 1e4 is the fraction in 1e-6 units: integer arithmetic, exact
  const millionths = whole * 10_000 + Number(decimals.slice(0, 4).padEnd(4, '0'))
  return { rate: Math.floor((millionths + 5) / 10), rounded: millionths % 10 !== 0 }
}
