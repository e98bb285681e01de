// Missouri DOR's Sales and Use Tax Rate Chart built from its documented layout
// (docs/data-sources.md#missouri): one sheet, title rows above the header on row 12 (columns B–J by
// name), codes NNNNN-CCC-NNN, rates as `%` strings or as fractions. Camden, Marion, Morgan, Scott and
// Shelby counties have no -000 row (publisher-evidence B, MO row). The rates are the fixture's own.
// The variants of publisher-evidence E2 are built too: header cells with spaces (`Jurisdiction Name`,
// `Jurisdiction Code`, `AMJ Rate(7004)`), the header on another row, text rows between the header
// and the data, and rates as `%` strings and as fractions in one file.
import writeXlsxFile from 'write-excel-file/node'

export const MO_HEADER = ['JurisdictionName', 'JurisdictionCode', 'SalesTaxRate(0000)', 'UseTaxRate(0000)(0010)', 'FoodSalesTax(1001)', 'FoodUseTax(1001)(1011)', '', 'DomesticUtilityRate(3200)', 'AMJRate(7004)']
/** E2: the header as TaxAP's fixture spells it, with spaces. */
export const MO_HEADER_E2 = ['Jurisdiction Name', 'Jurisdiction Code', 'SalesTaxRate(0000)', 'UseTaxRate(0000)(0010)', 'FoodSalesTax(1001)', 'FoodUseTax(1001)(1011)', '', 'DomesticUtilityRate(3200)', 'AMJ Rate(7004)']
/** Counties whose unincorporated land lies wholly in overlays: no 00000-CCC-000 row. */
export const MO_NO_BASE_COUNTIES = ['029', '127', '141', '201', '205']
export const MO_STATE = 4.225
export const MO_COUNTY_PART = 1.5
/** Cities of the fixture by Census place FIPS and county: Cape Girardeau, St. Louis (an independent city), Jefferson City in two counties. */
export const MO_CITIES = [
  { city: '11242', county: '031', name: 'CAPE GIRARDEAU', part: 2.5 },
  { city: '65000', county: '510', name: 'ST. LOUIS', part: 5.454 },
  { city: '37000', county: '051', name: 'JEFFERSON CITY', part: 2 },
  { city: '37000', county: '027', name: 'JEFFERSON CITY', part: 2 },
]

export type MoChartRow = { name: string; code: string; rate: number }

/** Every county's rows (an overlay of 1% on each), with the cities; the rates in percent. */
export function moChartRows(counties: { fips: string; name: string }[]): MoChartRow[] {
  const rows: MoChartRow[] = []
  for (const { fips, name } of counties) {
    const county = fips.slice(2)
    if (county === '510') continue
    const total = MO_STATE + MO_COUNTY_PART
    if (!MO_NO_BASE_COUNTIES.includes(county)) rows.push({ name: `${name.toUpperCase()} COUNTY`, code: `00000-${county}-000`, rate: total })
    rows.push({ name: `${name.toUpperCase()} COUNTY AMBULANCE DISTRICT`, code: `00000-${county}-001`, rate: total + 0.5 })
    rows.push({ name: `${name.toUpperCase()} COUNTY FIRE DISTRICT`, code: `00000-${county}-002`, rate: total + 1 })
  }
  for (const c of MO_CITIES) {
    const county = c.county === '510' ? MO_STATE : MO_STATE + MO_COUNTY_PART
    rows.push({ name: c.name, code: `${c.city}-${c.county}-000`, rate: county + c.part })
    rows.push({ name: `${c.name} DOWNTOWN CID`, code: `${c.city}-${c.county}-101`, rate: county + c.part + 1 })
  }
  return rows
}

export type MoChartOptions = {
  titleRows?: number
  /** `%` strings, fractions (spreadsheet numbers), percent numbers, or `%` strings and fractions row by row (E2) */
  form?: 'percent' | 'fraction' | 'percent-number' | 'mixed'
  header?: string[]
  /** E2: text rows between the header and the data */
  textRows?: string[]
}

const percentText = (rate: number) => `${rate.toFixed(4)}%`
const fraction = (rate: number) => Number((rate / 100).toFixed(7))

export async function moRateChart(rows: MoChartRow[], options: MoChartOptions = {}): Promise<Buffer> {
  const title = Array.from({ length: options.titleRows ?? 11 }, (_, i) => [{ value: '' }, { value: i === 0 ? 'Sales and Use Tax Rate Chart' : i === 1 ? 'Effective 10/01/2026 - 12/31/2026' : '' }])
  const header = options.header ?? MO_HEADER
  const form = options.form ?? 'percent'
  const written = (rate: number, i: number) => {
    const as = form === 'mixed' ? (i % 2 ? 'fraction' : 'percent') : form
    return as === 'percent' ? percentText(rate) : as === 'fraction' ? fraction(rate) : rate
  }
  const key = (name: string) => name.replace(/\s+/g, '')
  const body = rows.map((row, i) => {
    const values: Record<string, string | number> = { JurisdictionName: row.name, JurisdictionCode: row.code, 'SalesTaxRate(0000)': written(row.rate, i), 'UseTaxRate(0000)(0010)': written(row.rate, i), 'FoodSalesTax(1001)': written(1.225, i) }
    return [{ value: '' }, ...header.map((name) => ({ value: values[key(name)] ?? '' }))]
  })
  const text = (options.textRows ?? []).map((line) => [{ value: '' }, { value: line }])
  return writeXlsxFile([...title, [{ value: '' }, ...header.map((value) => ({ value }))], ...text, ...body] as never).toBuffer()
}
