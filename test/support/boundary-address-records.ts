// Fixture `sst-boundary-address-records`: the real MN boundary sample (its rows reopened to be current)
// with address (`A`) records added in the documented layout (publisher-evidence.md A.6: house range
// low/high, odd/even indicator, pre-directional, street name, suffix, post-directional, secondary
// unit abbreviation/low/high/odd-even, city name, ZIP5 at 0-based col 15 as VT writes it, +4 at 16,
// the ZIP low/high fields 17–20 blank). Each address record copies the county, place and districts
// of a real 4 row of 55101, so its bindings are real codes of a real ZIP; the streets are named after
// the trap they cover.
import { readFileSync } from 'node:fs'
import { sharedPath } from './shared.ts'

const SAMPLE = readFileSync(sharedPath('fixtures/sst/MNB2026Q2FEB18-sample.csv'), 'latin1').split('\n').filter((l) => l !== '')
/** The sample's rows all ended in 2019 (pitfall P12); reopened, they are a current boundary file made of real rows. */
export const REOPENED_ROWS = SAMPLE.map((line) => line.replace(/^([^,]*,[^,]*,)20190331,/, '$129991231,').split(','))

const fourRowsOf = (zip: string) => REOPENED_ROWS.filter((f) => f[0] === '4' && f[17] === zip && f[19] === zip)
/** 55101's 4 rows bind +4 ranges to Ramsey County / St. Paul and to Dakota County in turn. */
export const ST_PAUL = fourRowsOf('55101').find((f) => f[25] !== '')!
export const DAKOTA = fourRowsOf('55101').find((f) => f[24] !== ST_PAUL[24])!
export const UNRATED_CODE = '89999'

type Range = { low: string; high: string; side: string; pre?: string; name: string; suffix?: string; post?: string; plus4?: string; secondary?: [string, string, string]; from?: string; to?: string }

/** An address record over the binding of `like` (a 4 row of 55101): its county, place and districts. */
export function addressRecord(like: string[], range: Range): string[] {
  const fields = [...like]
  const [abbreviation, low, high] = range.secondary ?? ['', '', '']
  fields.splice(0, 21, 'A', range.from ?? like[1]!, range.to ?? like[2]!, range.low, range.high, range.side, range.pre ?? '', range.name, range.suffix ?? '', range.post ?? '', abbreviation, low, high, '', '', '55101', range.plus4 ?? '', '', '', '', '')
  return fields
}

const withDistrict = (row: string[], code: string) => [...row.slice(0, 29), 'ST', code, '63', ...row.slice(32)]

/** The address records, by the trap each covers. */
export const ADDRESS_RECORDS = {
  /** one street, its odd side in St. Paul and its even side in Dakota County */
  oddSide: addressRecord(ST_PAUL, { low: '101', high: '199', side: 'O', name: 'ROBERT', suffix: 'ST', post: 'N' }),
  evenSide: addressRecord(DAKOTA, { low: '100', high: '198', side: 'E', name: 'ROBERT', suffix: 'ST', post: 'N' }),
  /** two ranges of different bindings overlapping on 50…99 */
  overlapLow: addressRecord(DAKOTA, { low: '1', high: '99', side: 'B', pre: 'E', name: '7TH', suffix: 'ST' }),
  overlapHigh: addressRecord(ST_PAUL, { low: '50', high: '150', side: 'B', pre: 'E', name: '7TH', suffix: 'ST' }),
  /** house numbers that are not plain numbers, beside a numeric range of another binding */
  alphanumericHouses: addressRecord(ST_PAUL, { low: '12A', high: '40A', side: 'B', name: 'WABASHA', suffix: 'ST', post: 'N' }),
  numericBeside: addressRecord(DAKOTA, { low: '1', high: '99', side: 'B', name: 'WABASHA', suffix: 'ST', post: 'N' }),
  /** a street whose only range is a secondary-unit range */
  secondaryUnitsOnly: addressRecord(DAKOTA, { low: '1', high: '99', side: 'B', name: 'KELLOGG', suffix: 'BLVD', post: 'W', secondary: ['APT', '1', '10'] }),
  /** a range binding a district code the rate file has no row for */
  unratedDistrict: withDistrict(addressRecord(ST_PAUL, { low: '1', high: '99', side: 'B', name: 'JACKSON', suffix: 'ST' }), UNRATED_CODE),
  /** a range that ended before the rate file's quarter */
  ended: addressRecord(DAKOTA, { low: '1', high: '99', side: 'B', name: 'CEDAR', suffix: 'ST', from: '20150101', to: '20191231' }),
  /** a range that starts in the future */
  future: addressRecord(DAKOTA, { low: '1', high: '99', side: 'B', name: 'MINNESOTA', suffix: 'ST', from: '20270101', to: '29991231' }),
  /** both house numbers and the indicator blank, the record type in lower case (pitfall P5): the whole street */
  wholeStreet: ['a', ...addressRecord(DAKOTA, { low: '', high: '', side: '', name: 'LAFAYETTE', suffix: 'RD' }).slice(1)],
  /** a range whose record carries a +4 as well */
  withPlus4: addressRecord(DAKOTA, { low: '1', high: '99', side: 'B', name: 'SIBLEY', suffix: 'ST', plus4: DAKOTA[18] }),
}

/** The sample and the address records, as the lines of one boundary file. */
export const BOUNDARY_WITH_ADDRESSES: string[] = [...REOPENED_ROWS, ...Object.values(ADDRESS_RECORDS)].map((fields) => fields.join(','))
