// Colorado DOR's DR 1002 workbook built from its documented layout (docs/data-sources.md#colorado,
// publisher-evidence B, CO row): the sheets By Name, By Juris Codes, Exemption Codes, Tax Codes,
// Alternate City Rates and State Service Fee Rates; on "By Name", title rows, then A `Location Code`
// (the place's name), B `Jurisdiction Code` (6 digits), C `County`, D `Self Collected Home Rule`,
// exemption columns, the merged `Total Rate` header, and (Tax Type, Rate, Service Fee Rate) triples
// from column I. Whether a triple names its tax in a `Tax Type` column or in its own header is not
// confirmed: both forms are built. Rates are written as publisher-evidence E3 found them by default:
// percent numbers (State 2.9, RTD 1, CD 0.1), the home-rule cell the text `Self-Collected` or blank;
// fractions, `%` strings and Y/N cells are built too. The places are real (Aurora with five codes,
// Denver, Boulder a self-collecting home-rule city); the rates are the fixture's own.
import writeXlsxFile from 'write-excel-file/node'

export const CO_STATE = 2.9
export const CO_COUNTY = 1
export const CO_SHEETS = ['By Name', 'By Juris Codes', 'Exemption Codes', 'Tax Codes', 'Alternate City Rates', 'State Service Fee Rates']
const NAMED = ['Location Code', 'Jurisdiction Code', 'County', 'Self Collected Home Rule']
const EXEMPTIONS = ['Food for Home Consumption', 'Machinery', 'Farm Equipment']

export type CoTaxCell = { type: string; rate: number }
export type CoRow = { name: string; code: string | number; county: string; selfCollected?: boolean; taxes: CoTaxCell[] }

const tax = (type: string, rate: number): CoTaxCell => ({ type, rate })
const base = (county: number): CoTaxCell[] => [tax('State', CO_STATE), ...(county ? [tax('County', county)] : [])]
const metro = [tax('RTD', 1), tax('CD', 0.1)]

/** Aurora's five codes: in Adams, in Douglas, and three in Arapahoe, one of them inside a 0.5% improvement district. */
export const AURORA = { city: 3.75, adams: 0.75, arapahoe: 0.25, douglas: 1, lid: 0.5 }
export const DENVER_CITY = 4.81
export const BOULDER_CITY = 3.86

/** Every county's land outside places (`Unincorporated <Name> County`), then the fixture's cities. */
export function coRows(counties: { fips: string; name: string }[]): CoRow[] {
  const countyRate: Record<string, number> = { Adams: AURORA.adams, Arapahoe: AURORA.arapahoe, Douglas: AURORA.douglas, Denver: 0 }
  const rows: CoRow[] = []
  counties.forEach(({ name }, i) => {
    if (name === 'Denver' || name === 'Broomfield') return
    rows.push({ name: `Unincorporated ${name} County`, code: String(100000 + i * 10), county: name, taxes: base(countyRate[name] ?? CO_COUNTY) })
  })
  rows.push(
    { name: 'Aurora', code: '001004', county: 'Adams', taxes: [...base(AURORA.adams), tax('City', AURORA.city), ...metro] },
    { name: 'Aurora', code: '001005', county: 'Adams', taxes: [...base(AURORA.adams), tax('City', AURORA.city), ...metro] },
    { name: 'Aurora', code: '005004', county: 'Arapahoe', taxes: [...base(AURORA.arapahoe), tax('City', AURORA.city), ...metro] },
    { name: 'Aurora', code: '005005', county: 'Arapahoe', taxes: [...base(AURORA.arapahoe), tax('City', AURORA.city), ...metro, tax('LID', AURORA.lid)] },
    { name: 'Aurora', code: '035004', county: 'Douglas', taxes: [...base(AURORA.douglas), tax('City', AURORA.city), ...metro] },
    { name: 'Denver', code: '031001', county: 'Denver', selfCollected: true, taxes: [...base(0), tax('City', DENVER_CITY), ...metro] },
    { name: 'Broomfield', code: '014001', county: 'Broomfield', selfCollected: true, taxes: [...base(0), tax('City', 4.15), ...metro] },
    { name: 'Boulder', code: '013001', county: 'Boulder', selfCollected: true, taxes: [...base(CO_COUNTY), tax('City', BOULDER_CITY), ...metro] },
  )
  return rows
}

export type CoWorkbookOptions = {
  /** rows above the header (2 by default) */
  titleRows?: number
  /** where a triple names its tax: a `Tax Type` column (default) or its own header */
  triples?: 'type-column' | 'type-header'
  /** E3: percent numbers (2.9; the default), spreadsheet fractions (0.029) or `%` strings */
  form?: 'percent-number' | 'fraction' | 'percent'
  /** E3: the home-rule cell as text, `Self-Collected` or blank (the default), or as Y/N */
  homeRule?: 'text' | 'yes-no'
  header?: string[]
  /** the name of the sheet the rows are on */
  sheet?: string
}

const TRIPLE_TYPES = ['State', 'County', 'City', 'RTD', 'CD', 'LID']
const fraction = (percent: number) => Number((percent / 100).toFixed(7))
const percentText = (percent: number) => `${percent.toFixed(3)}%`

export async function coRateWorkbook(rows: CoRow[], options: CoWorkbookOptions = {}): Promise<Buffer> {
  const triples = options.triples ?? 'type-column'
  const form = options.form ?? 'percent-number'
  const rate = (percent: number) => (form === 'fraction' ? fraction(percent) : form === 'percent' ? percentText(percent) : percent)
  const homeRule = (self: boolean | undefined) => ((options.homeRule ?? 'text') === 'text' ? (self ? 'Self-Collected' : '') : self ? 'Y' : 'N')
  const named = options.header ?? NAMED
  const tripleHeader = TRIPLE_TYPES.flatMap((type) => [triples === 'type-column' ? 'Tax Type' : type, 'Rate', 'Service Fee Rate'])
  // `Total Rate` is merged down over the header row, the triples grouped under one merged title.
  const header = [...named, ...EXEMPTIONS, null, ...tripleHeader]
  const title = Array.from({ length: options.titleRows ?? 2 }, (_, i) => [{ value: i === 0 ? 'Colorado Sales/Use Tax Rates (DR 1002)' : 'Effective July 1, 2026 - December 31, 2026' }])
  const body = rows.map((row) => {
    const values: Record<string, string | number> = {
      'Location Code': row.name,
      'Jurisdiction Code': row.code,
      County: row.county,
      'Self Collected Home Rule': homeRule(row.selfCollected),
    }
    const total = row.taxes.reduce((sum, t) => sum + t.rate, 0)
    const cells = named.map((name) => ({ value: values[name] ?? '' }))
    const exemptions = EXEMPTIONS.map(() => ({ value: 'Exempt' }))
    // The merged Total Rate header's cells lag the rates below them: never read.
    const totalCell = { value: rate(total + 0.25) }
    const tripleCells = TRIPLE_TYPES.flatMap((type) => {
      const found = row.taxes.find((t) => t.type === type)
      if (!found) return [{ value: '' }, { value: '' }, { value: '' }]
      return [{ value: triples === 'type-column' ? type : '' }, { value: rate(found.rate) }, { value: form === 'fraction' ? 0.0333 : form === 'percent' ? '3.33%' : 3.33 }]
    })
    return [...cells, ...exemptions, totalCell, ...tripleCells]
  })
  const merged = [...named.map(() => ({ value: '' })), ...EXEMPTIONS.map((_, i) => ({ value: i === 0 ? 'Exemptions' : '' })), { value: 'Total Rate', rowSpan: 2 }, { value: 'Tax Breakdown', columnSpan: tripleHeader.length }, ...tripleHeader.slice(1).map(() => null)]
  const byName = [...title, merged, header.map((value) => (value === null ? null : { value })), ...body]
  const other = (name: string) => ({ sheet: name, data: [[{ value: `${name} of the DR 1002` }]] })
  const sheetName = options.sheet ?? CO_SHEETS[0]!
  return writeXlsxFile([{ sheet: sheetName, data: byName }, ...CO_SHEETS.slice(1).map(other)] as never).toBuffer()
}

/**
 * A row's rates written as spreadsheet fractions (State 0.029) where the DR 1002's percent numbers
 * stand (publisher-evidence E3: rate cells are percent numbers, State 2.9, not fractions): one odd
 * row among the rest, its State cell no state rate in the sheet's unit.
 */
export const ratesAsFractions = (row: CoRow): CoRow => ({ ...row, taxes: row.taxes.map((t) => ({ ...t, rate: Number((t.rate / 100).toFixed(7)) })) })
