// Alabama DOR's local rates file built from its documented layout (docs/data-sources.md#alabama): a
// 13-column CSV with dates YYYYMMDD, `Rate` the local-only percent, county codes starting with 7,
// police jurisdictions (PJ=Y, PJ_Rate), and rows of other tax and rate types beside the general
// sales ones. The codes and rates are the fixture's own. The county localities of publisher-evidence
// E4 are built too (e4CountyRows): the variants `<X> COUNTY CL`, `PJ`, `UNINCORP AREAS`, `UNABATED
// <X> COUNTY`, `COUNTY-WIDE TAX`, `JEFFERSON COUNTY EDUCATION`, `CHILTON COUNTY CL 4 CITIES`, `PIKE
// COUNTY CL TROY` / `EXC CL TROY`, with Madison, Morgan and Pike lacking a plain county row.
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

/** The E4 county localities by county name: each county named here gets these rows, with or without its plain row. */
export const AL_E4: Record<string, { plain: boolean; localities: [code: string, name: string, rate: string][] }> = {
  Madison: { plain: false, localities: [['7801', 'MADISON COUNTY COUNTY-WIDE TAX', '0.5000']] },
  Morgan: { plain: false, localities: [['7802', 'MORGAN COUNTY UNINCORP AREAS', '2.0000'], ['7803', 'MORGAN COUNTY CL', '1.5000']] },
  Pike: { plain: false, localities: [['7804', 'PIKE COUNTY CL TROY', '1.0000'], ['7805', 'PIKE COUNTY EXC CL TROY', '2.5000']] },
  Jefferson: { plain: true, localities: [['7806', 'JEFFERSON COUNTY EDUCATION', '1.0000']] },
  Chilton: { plain: true, localities: [['7807', 'CHILTON COUNTY CL 4 CITIES', '1.0000']] },
  Mobile: { plain: true, localities: [['7808', 'MOBILE COUNTY CL', '0.5000']] },
  Russell: { plain: true, localities: [['7809', 'RUSSELL COUNTY PJ', '1.5000']] },
  Baldwin: { plain: true, localities: [['7810', 'UNABATED BALDWIN COUNTY', '1.0000']] },
}

/** The E4 cities the zones are tested by: Troy (Pike), Decatur (Morgan), Huntsville (Madison), Mobile (Mobile). */
export const alE4CityRows = (countyCodeOf: (name: string) => string): AlFixtureRow[] => [
  { 'Locality Code': '9101', 'Locality Name': 'TROY', 'County Code': '7804', Rate: '3.0000', 'Active Date': '20200101' },
  { 'Locality Code': '9102', 'Locality Name': 'DECATUR', 'County Code': '7803', Rate: '4.0000', 'Active Date': '20200101' },
  { 'Locality Code': '9103', 'Locality Name': 'HUNTSVILLE', 'County Code': '7801', Rate: '4.5000', 'Active Date': '20200101' },
  { 'Locality Code': '9104', 'Locality Name': 'MOBILE', 'County Code': countyCodeOf('Mobile'), Rate: '5.0000', 'Active Date': '20200101' },
]

export function alRateFile(counties: string[], options: { cities?: AlFixtureRow[]; header?: string[]; edit?: (row: AlFixtureRow) => AlFixtureRow; e4?: boolean } = {}): string {
  const codeOf = (name: string) => `7${String(counties.indexOf(name) + 1).padStart(3, '0')}`
  const county = (code: string, name: string, i: number, rate = AL_COUNTY_RATE): AlFixtureRow => ({ 'Locality Code': code, 'Locality Name': name, 'County Number': String(i + 1), Rate: rate, 'Active Date': '20200101', 'County Code': code })
  const countyRows: AlFixtureRow[] = counties.flatMap((name, i) => {
    const e4 = options.e4 ? AL_E4[name] : undefined
    const plain = !e4 || e4.plain ? [county(codeOf(name), `${name.toUpperCase()} COUNTY`, i)] : []
    return [...plain, ...(e4?.localities ?? []).map(([code, locality, rate]) => county(code, locality, i, rate))]
  })
  const rows = [...countyRows, ...(options.cities ?? [...alCityRows(codeOf), ...(options.e4 ? alE4CityRows(codeOf) : [])])].map((row) => ({ TaxType: 'ST', 'Rate Type': 'GENER', Administered: 'STATE', Indicator: '', PJ: 'N', PJ_Rate: '', 'Inactive Date': '', ...row })).map(options.edit ?? ((r) => r))
  const header = options.header ?? AL_HEADER
  return [header.join(','), ...rows.map((row) => header.map((h) => (row as Record<string, string>)[h] ?? '').join(','))].join('\r\n') + '\r\n'
}
