// Arizona DOR's TPT rate table built from its documented layout (docs/data-sources.md#arizona):
// UTF-8 with a BOM, header RegionCode,RegionName,BusinessCode,BusinessCodesName,TaxRate,TaxRateType,
// RateStartDate,RateEndDate, dates M/D/YYYY with 12/31/9999 for an open end, rates in percent units.
// County rows include the 5.6% state rate, city rows are city-only. The figures are the fixture's own.
export const AZ_COUNTIES: Record<string, string> = {
  APA: 'APACHE', COH: 'COCHISE', COC: 'COCONINO', GLA: 'GILA', GRA: 'GRAHAM', GRN: 'GREENLEE', LAP: 'LA PAZ', MAR: 'MARICOPA',
  MOH: 'MOHAVE', NAV: 'NAVAJO', PMA: 'PIMA', PNL: 'PINAL', STC: 'SANTA CRUZ', YAV: 'YAVAPAI', YMA: 'YUMA',
}
/** County part over the state rate, percent. */
export const COUNTY_PART: Record<string, string> = { MAR: '0.7', PMA: '0.5', PNL: '1.1' }
export type AzFixtureRow = [code: string, name: string, business: string, rate: string, type: string, start: string, end: string]

export const AZ_CITIES: AzFixtureRow[] = [
  ['PX', 'PHOENIX', '017', '2.3', 'Percent', '7/1/2019', '12/31/9999'],
  ['TU', 'TUCSON', '017', '2.6', 'Percent', '7/1/2023', '12/31/9999'],
  // a city named like a county (Maricopa in Pinal County): bound by its 2-letter code as a city
  ['MP', 'MARICOPA', '017', '2.0', 'Percent', '1/1/2020', '12/31/9999'],
  // a rate changing: two dated windows of one region
  ['MS', 'MESA', '017', '1.75', 'Percent', '7/1/2018', '3/31/2026'],
  ['MS', 'MESA', '017', '2.0', 'Percent', '4/1/2026', '12/31/9999'],
  // other business codes: below 1 (mining) and per unit (jet fuel), never read as retail
  ['PX', 'PHOENIX', '019', '0.1', 'Percent', '7/1/2019', '12/31/9999'],
  ['PX', 'PHOENIX', '049', '0.0305', 'Per Gallon', '7/1/2019', '12/31/9999'],
  // a tribal region: neither a county nor a city code
  ['SRPMIC', 'SALT RIVER PIMA-MARICOPA INDIAN COMMUNITY', '017', '1.0', 'Percent', '1/1/2020', '12/31/9999'],
]

const HEADER = 'RegionCode,RegionName,BusinessCode,BusinessCodesName,TaxRate,TaxRateType,RateStartDate,RateEndDate'

export function azRateTable(options: { rows?: AzFixtureRow[]; bom?: boolean; header?: string } = {}): string {
  const counties: AzFixtureRow[] = Object.entries(AZ_COUNTIES).map(([code, name]) => [code, name, '017', (5.6 + Number(COUNTY_PART[code] ?? '0.5')).toFixed(1), 'Percent', '1/1/2020', '12/31/9999'])
  const rows = [...counties, ...(options.rows ?? AZ_CITIES)]
  const lines = [options.header ?? HEADER, ...rows.map(([code, name, business, rate, type, start, end]) => [code, name, business, business === '017' ? 'Retail' : 'Other', rate, type, start, end].join(','))]
  return `${options.bom === false ? '' : '\uFEFF'}${lines.join('\r\n')}\r\n`
}
