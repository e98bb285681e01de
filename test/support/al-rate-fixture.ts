// Alabama DOR's local rates file built from its documented layout (docs/data-sources.md#alabama): a
// 13-column CSV with dates YYYYMMDD, `Rate` the local-only percent, county codes starting with 7,
// police jurisdictions (PJ=Y, PJ_Rate), and rows of other tax and rate types beside the general
// sales ones. The codes and rates are the fixture's own.
export const AL_HEADER = ['Locality Code', 'Locality Name', 'County Number', 'TaxType', 'Rate Type', 'Administered', 'Active Date', 'Inactive Date', 'Rate', 'Indicator', 'PJ', 'County Code', 'PJ_Rate']
export const AL_COUNTY_RATE = '1.0000'

export type AlFixtureRow = Partial<Record<(typeof AL_HEADER)[number], string>>

/** Cities of the fixture: a rate change (Birmingham), a police jurisdiction (Montgomery), a city no place bears the name of. */
export const alCityRows = (countyCodeOf: (name: string) => string): AlFixtureRow[] => [
  { 'Locality Code': '9001', 'Locality Name': 'BIRMINGHAM', 'County Code': countyCodeOf('Jefferson'), Rate: '4.0000', 'Active Date': '20200101', 'Inactive Date': '20260930' },
  { 'Locality Code': '9001', 'Locality Name': 'BIRMINGHAM', 'County Code': countyCodeOf('Jefferson'), Rate: '4.5000', 'Active Date': '20261001' },
  { 'Locality Code': '9002', 'Locality Name': 'MONTGOMERY', 'County Code': countyCodeOf('Montgomery'), Rate: '3.5000', 'Active Date': '20200101', PJ: 'Y', PJ_Rate: '1.7500' },
  { 'Locality Code': '9003', 'Locality Name': 'ATLANTIS', 'County Code': countyCodeOf('Jefferson'), Rate: '2.0000', 'Active Date': '20200101' },
  // other tax and rate types of a city, never read as its general sales rate
  { 'Locality Code': '9001', 'Locality Name': 'BIRMINGHAM', 'County Code': countyCodeOf('Jefferson'), TaxType: 'SU', Rate: '4.0000', 'Active Date': '20200101' },
  { 'Locality Code': '9001', 'Locality Name': 'BIRMINGHAM', 'County Code': countyCodeOf('Jefferson'), 'Rate Type': 'AUTO', Rate: '0.7500', 'Active Date': '20200101' },
]

export function alRateFile(counties: string[], options: { cities?: AlFixtureRow[]; header?: string[]; edit?: (row: AlFixtureRow) => AlFixtureRow } = {}): string {
  const codeOf = (name: string) => `7${String(counties.indexOf(name) + 1).padStart(3, '0')}`
  const countyRows: AlFixtureRow[] = counties.map((name, i) => ({ 'Locality Code': codeOf(name), 'Locality Name': `${name.toUpperCase()} COUNTY`, 'County Number': String(i + 1), Rate: AL_COUNTY_RATE, 'Active Date': '20200101', 'County Code': codeOf(name) }))
  const rows = [...countyRows, ...(options.cities ?? alCityRows(codeOf))].map((row) => ({ TaxType: 'ST', 'Rate Type': 'GENER', Administered: 'STATE', Indicator: '', PJ: 'N', PJ_Rate: '', 'Inactive Date': '', ...row })).map(options.edit ?? ((r) => r))
  const header = options.header ?? AL_HEADER
  return [header.join(','), ...rows.map((row) => header.map((h) => (row as Record<string, string>)[h] ?? '').join(','))].join('\r\n') + '\r\n'
}
