// Arizona DOR's transaction privilege tax rate table TPT_RATETABLE_ALL_MMDDYYYY.csv
// (docs/data-sources.md#arizona): CSV (UTF-8 with a BOM, stripped by text-decoding.ts), read by its
// header names RegionCode, RegionName, BusinessCode, BusinessCodesName, TaxRate, TaxRateType,
// RateStartDate, RateEndDate; one row per region and business code over a dated window (M/D/YYYY,
// an open end written 12/31/9999). Only retail (business code 017) is kept. The unit of TaxRate is
// its TaxRateType's, never guessed from the size of the number: retail must be `Percent`.
import Papa from 'papaparse'
import { parseRatePercent } from '../../../snapshot-contract/rate-units.ts'

export const AZ_RETAIL = '017'
const COLUMNS = ['RegionCode', 'RegionName', 'BusinessCode', 'BusinessCodesName', 'TaxRate', 'TaxRateType', 'RateStartDate', 'RateEndDate'] as const
const OPEN_END = '9999-12-31'

export type AzRow = { line: number; region: string; name: string; rate: number; from: string; to: string | null }
export type AzTptFile = { fileName: string; rows: AzRow[]; rowsRead: number }

const isoOf = (text: string): string | null => {
  const match = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text.trim())
  return match ? `${match[3]}-${match[1]!.padStart(2, '0')}-${match[2]!.padStart(2, '0')}` : null
}

export function parseAzTptFile(text: string, fileName: string): AzTptFile {
  const parsed = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true, transformHeader: (h) => h.trim() })
  const fields = parsed.meta.fields ?? []
  const missing = COLUMNS.filter((c) => !fields.includes(c))
  if (missing.length) throw new Error(`${fileName}: header lacks ${missing.join(', ')} (found ${fields.slice(0, 8).join(', ') || 'nothing'}): not the TPT rate table, or its header moved`)
  const rows: AzRow[] = []
  const rejected: string[] = []
  parsed.data.forEach((record, i) => {
    const line = i + 2
    if ((record.BusinessCode ?? '').trim() !== AZ_RETAIL) return
    const type = (record.TaxRateType ?? '').trim()
    if (type.toLowerCase() !== 'percent') {
      rejected.push(`line ${line}: retail rate of ${record.RegionCode} is of type ${JSON.stringify(type)}, not Percent: a per-unit rate where a percent is expected`)
      return
    }
    const rate = parseRatePercent(record.TaxRate ?? '')
    const from = isoOf(record.RateStartDate ?? '')
    const end = isoOf(record.RateEndDate ?? '')
    if (!rate.ok) rejected.push(`line ${line}: ${record.RegionCode} TaxRate ${rate.reason}`)
    else if (rate.units > 20_000) rejected.push(`line ${line}: ${record.RegionCode} TaxRate ${record.TaxRate} is above 20%: not a percent a region levies`)
    else if (!from || !end) rejected.push(`line ${line}: ${record.RegionCode} dates ${record.RateStartDate}–${record.RateEndDate} are not M/D/YYYY`)
    else rows.push({ line, region: record.RegionCode!.trim(), name: (record.RegionName ?? '').trim(), rate: rate.units, from, to: end === OPEN_END ? null : end })
  })
  if (rejected.length) throw new Error(`${fileName}: ${rejected.length} retail row(s) rejected: ${rejected.slice(0, 5).join('; ')}`)
  if (rows.length === 0) throw new Error(`${fileName}: no retail (business code ${AZ_RETAIL}) rows`)
  return { fileName, rows, rowsRead: parsed.data.length }
}
