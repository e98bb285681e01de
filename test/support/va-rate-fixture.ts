// Virginia Tax's sales-tax-rates.xlsx built from its documented layout (docs/data-sources.md#virginia):
// two title rows, the header on row 3, one row per locality by FIPS, rates as decimal fractions.
// State 4.3% + local 1%; regional 0.7% (NVA, HR, CVA) and the Historic Triangle's 1% (publisher-evidence
// B, VA row); which localities lie in which region is the fixture's own short list.
import writeXlsxFile from 'write-excel-file/node'

export const VA_HEADER = ['State Code (FIPS)', 'County or City Code (FIPS)', 'Locality Name', 'Total General Sales Tax', 'Total Food & Personal Hygiene Sales Tax', 'State General Sales Tax', 'State Regional Sales Tax (NVA)', 'State Regional Sales Tax (HR)', 'State Regional Sales Tax (CVA)', 'State Regional Sales Tax (HT)', 'Local Sales Tax', 'Additional Local Option Sales Tax']
export const VA_REGION_OF: Record<string, { NVA?: number; HR?: number; CVA?: number; HT?: number }> = {
  '059': { NVA: 0.007 }, '510': { NVA: 0.007 },
  '810': { HR: 0.007 }, '830': { HR: 0.007, HT: 0.01 }, '095': { HR: 0.007, HT: 0.01 }, '199': { HR: 0.007, HT: 0.01 },
  '760': { CVA: 0.007 },
}

export type VaLocalityRow = { fips: string; name: string; cells?: Partial<Record<string, string | number>> }

export async function vaRateWorkbook(localities: VaLocalityRow[], options: { titleRows?: number; header?: string[] } = {}): Promise<Buffer> {
  const title = Array.from({ length: options.titleRows ?? 2 }, (_, i) => [{ value: i === 0 ? 'Virginia Sales and Use Tax Rates' : 'Rates by locality' }])
  const header = options.header ?? VA_HEADER
  const rows = localities.map(({ fips, name, cells = {} }) => {
    const region = VA_REGION_OF[fips] ?? {}
    const regional = (region.NVA ?? 0) + (region.HR ?? 0) + (region.CVA ?? 0) + (region.HT ?? 0)
    const values: Record<string, string | number> = {
      'State Code (FIPS)': '51', 'County or City Code (FIPS)': fips, 'Locality Name': name,
      'Total General Sales Tax': Number((0.053 + regional).toFixed(5)), 'Total Food & Personal Hygiene Sales Tax': 0.01,
      'State General Sales Tax': 0.043, 'State Regional Sales Tax (NVA)': region.NVA ?? 0, 'State Regional Sales Tax (HR)': region.HR ?? 0,
      'State Regional Sales Tax (CVA)': region.CVA ?? 0, 'State Regional Sales Tax (HT)': region.HT ?? 0, 'Local Sales Tax': 0.01, 'Additional Local Option Sales Tax': 0,
      ...cells,
    }
    return header.map((name) => ({ value: values[name] ?? '' }))
  })
  return writeXlsxFile([...title, header.map((value) => ({ value })), ...rows] as never).toBuffer()
}

/**
 * A locality's Total General Sales Tax written as the percent the evidence gives totals in (publisher-
 * evidence B, VA row: "Totals observed: 5.3 / 6.0 / 6.3 / 7.0%") where the file's decimal fractions
 * stand: one odd row, no fraction a rate can be.
 */
export function totalWrittenAsPercent(row: VaLocalityRow): VaLocalityRow {
  const region = VA_REGION_OF[row.fips] ?? {}
  const regional = (region.NVA ?? 0) + (region.HR ?? 0) + (region.CVA ?? 0) + (region.HT ?? 0)
  return { ...row, cells: { ...row.cells, 'Total General Sales Tax': Number(((0.053 + regional) * 100).toFixed(3)) } }
}
