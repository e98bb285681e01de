// Alabama DOR's local rates text file (docs/data-sources.md#alabama): a 13-column CSV read by header
// name (`Locality Code, Locality Name, County Number, TaxType, Rate Type, Administered, Active Date,
// Inactive Date, Rate, Indicator, PJ, County Code, PJ_Rate`), published as `taxrates_current.csv`
// (current rows) and as `taxrates.csv` (current and past rows): both are read alike. Only general
// sales rows (`TaxType=ST`, `Rate Type=GENER`) are kept. `Rate` and `PJ_Rate` are local-only percents;
// dates are YYYYMMDD, an empty Inactive Date an open end.
import Papa from 'papaparse'
import { parseRatePercent } from '../../../snapshot-contract/rate-units.ts'

const COLUMNS = ['Locality Code', 'Locality Name', 'County Number', 'TaxType', 'Rate Type', 'Active Date', 'Inactive Date', 'Rate', 'PJ', 'County Code', 'PJ_Rate'] as const
/** The most a single Alabama locality levies, in 1e-5 units: above it, a rate is not a percent. */
const MOST_LOCAL_PERCENT = 10_000
/** The least: a nonzero rate below 0.1% is a fraction where a percent is expected. */
const LEAST_LOCAL_PERCENT = 100

export type AlRow = { line: number; code: string; name: string; countyCode: string; rate: number; pjRate: number | null; from: string; to: string | null }
export type AlRateFile = { fileName: string; rows: AlRow[]; rowsRead: number }

const isoOf = (text: string): string | null => {
  const match = /^(\d{4})(\d{2})(\d{2})$/.exec(text.trim())
  return match ? `${match[1]}-${match[2]}-${match[3]}` : null
}

export function parseAlRateFile(text: string, fileName: string): AlRateFile {
  const parsed = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true, transformHeader: (h) => h.trim() })
  const fields = parsed.meta.fields ?? []
  const missing = COLUMNS.filter((c) => !fields.includes(c))
  if (missing.length) throw new Error(`${fileName}: header lacks ${missing.join(', ')} (found ${fields.slice(0, 6).join(', ') || 'nothing'}): not Alabama's local rate file, or its header moved`)
  const rows: AlRow[] = []
  const rejected: string[] = []
  parsed.data.forEach((record, i) => {
    const line = i + 2
    const cell = (name: (typeof COLUMNS)[number]) => (record[name] ?? '').trim()
    if (cell('TaxType') !== 'ST' || cell('Rate Type') !== 'GENER') return
    const code = cell('Locality Code')
    const rate = parseRatePercent(cell('Rate'))
    const pj = cell('PJ').toUpperCase() === 'Y' ? parseRatePercent(cell('PJ_Rate')) : null
    const from = isoOf(cell('Active Date'))
    const to = cell('Inactive Date') === '' ? null : isoOf(cell('Inactive Date'))
    if (!/^\d{4}$/.test(code)) rejected.push(`line ${line}: Locality Code ${JSON.stringify(code)} is not 4 digits`)
    else if (!rate.ok) rejected.push(`line ${line}: ${code} Rate ${rate.reason}`)
    else if (rate.units > 0 && rate.units < LEAST_LOCAL_PERCENT) rejected.push(`line ${line}: ${code} Rate ${cell('Rate')} is below 0.1%: a fraction where a percent is expected?`)
    else if (rate.units > MOST_LOCAL_PERCENT) rejected.push(`line ${line}: ${code} Rate ${cell('Rate')} is above 10%: not a local percent`)
    else if (pj && !pj.ok) rejected.push(`line ${line}: ${code} PJ_Rate ${pj.reason}`)
    else if (!from || to === undefined || (cell('Inactive Date') !== '' && !to)) rejected.push(`line ${line}: ${code} dates ${cell('Active Date')}–${cell('Inactive Date')} are not YYYYMMDD`)
    else rows.push({ line, code, name: cell('Locality Name'), countyCode: cell('County Code'), rate: rate.units, pjRate: pj?.ok ? pj.units : null, from, to })
  })
  if (rejected.length) throw new Error(`${fileName}: ${rejected.length} general sales row(s) rejected: ${rejected.slice(0, 5).join('; ')}`)
  if (rows.length === 0) throw new Error(`${fileName}: no general sales (TaxType ST, Rate Type GENER) rows`)
  return { fileName, rows, rowsRead: parsed.data.length }
}
