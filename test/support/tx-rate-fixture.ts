// A Texas Comptroller taxrates.txt built from its documented layout (docs/data-sources.md#texas):
// tab-separated, CRLF, a control record, filing-due-date rows of period kind q and m, then one
// 12-field row per taxing area, `n/a` where a triple is absent. Codes follow the documented families
// (2… city, 3… transit, 4… county, 5…/6… district); the figures are the fixture's own. The variants of
// publisher-evidence E1 are built too: a district code in fields 1–3 (`Amarillo/Randall Co AD 1 ⇥
// 6191606`), the absent triple written `n/a ⇥ n/a ⇥ 0`, a county levying nothing printing its name
// with code n/a (`Rusk ⇥ n/a ⇥ 0`), and filing-due-date rows padded with empty fields to 12 whose
// field 2 is the period kind (the evidence fixes field 2 and the padding; field 1 is the fixture's).
import { parseRateFraction } from '../../snapshot-contract/rate-units.ts'

export type TxRow = [city: Triple | null, county: Triple | null, a: Triple | null, b: Triple | null]
export type Triple = [name: string, code: string, rate: string]

/** A rate of the file in 1e-5 units. */
export function txUnits(rate: string): number {
  const parsed = parseRateFraction(rate)
  if (!parsed.ok) throw new Error(parsed.reason)
  return parsed.units
}

const NA: Triple = ['n/a', 'n/a', 'n/a']

export const HOUSTON: Triple = ['HOUSTON', '2101000', '0.010000']
export const HARRIS: Triple = ['HARRIS', '4101002', 'n/a']
export const METRO: Triple = ['HOUSTON MTA', '3101990', '0.010000']
export const HARRIS_ESD: Triple = ['HARRIS CO ESD NO 11', '5101600', '0.005000']
export const AUSTIN: Triple = ['AUSTIN', '2227000', '0.010000']
export const TRAVIS: Triple = ['TRAVIS', '4227008', 'n/a']
export const CAPITAL_METRO: Triple = ['AUSTIN MTA', '3227996', '0.010000']
export const HAYS: Triple = ['HAYS', '4105001', '0.005000']
export const SAN_MARCOS: Triple = ['SAN MARCOS', '2105013', '0.015000']
export const NOWHERE: Triple = ['NOWHEREVILLE', '2101999', '0.010000']
/** E1: an assistance district's code in the fields where a city code usually stands (the name and code are the evidence's, the rate the fixture's). */
export const AMARILLO_AD: Triple = ['Amarillo/Randall Co AD 1', '6191606', '0.005000']
export const RANDALL: Triple = ['RANDALL', '4191005', '0.005000']
/** E1: a county levying nothing, its name printed with code n/a. */
export const RUSK_NO_TAX: Triple = ['Rusk', 'n/a', '0']
export const HENDERSON: Triple = ['HENDERSON', '2201006', '0.015000']
/** E1: an absent triple as the real file writes it. */
export const NA_ZERO: Triple = ['n/a', 'n/a', '0']

/** The areas of the fixture, each named after what it covers. */
export const TX_AREAS = {
  houston: [HOUSTON, HARRIS, METRO, null],
  harrisUnincorporated: [null, HARRIS, METRO, null],
  harrisUnincorporatedWithEsd: [null, HARRIS, METRO, HARRIS_ESD],
  /** the district triple printed before the transit one (TaxAP's reading of fields 7–12) */
  harrisUnincorporatedSpdFirst: [null, HARRIS, HARRIS_ESD, METRO],
  austin: [AUSTIN, TRAVIS, CAPITAL_METRO, null],
  /** a city spilling into a second county: its county rate is n/a and must not be read as Hays's own */
  austinHaysCombined: [['AUSTIN/HAYS CO', AUSTIN[1], AUSTIN[2]], ['HAYS', HAYS[1], 'n/a'], CAPITAL_METRO, null],
  haysUnincorporated: [null, HAYS, null, null],
  sanMarcos: [SAN_MARCOS, HAYS, null, null],
  /** a city code naming no Census place in its county */
  unboundCity: [NOWHERE, HARRIS, null, null],
} satisfies Record<string, TxRow>

/** The areas of publisher-evidence E1, each named after what it shows. */
export const TX_E1_AREAS = {
  /** a district code in fields 1–3, where a city code usually stands */
  districtInCityFields: [AMARILLO_AD, RANDALL, NA_ZERO, NA_ZERO],
  randallUnincorporated: [NA_ZERO, RANDALL, NA_ZERO, NA_ZERO],
  /** a county levying nothing: its name with code n/a, so the area can be placed */
  ruskUnincorporated: [NA_ZERO, RUSK_NO_TAX, NA_ZERO, NA_ZERO],
  henderson: [HENDERSON, RUSK_NO_TAX, NA_ZERO, NA_ZERO],
} satisfies Record<string, TxRow>

export type TxFileOptions = {
  quarter?: string
  rows?: TxRow[]
  bom?: boolean
  declared?: number
  /** E1: the filing-due-date rows as the real file holds them, field 2 the period kind, padded with empty fields to 12 */
  paddedFiling?: boolean
  /** lines put in as they are after the area rows (a row that does not fit) */
  extraLines?: string[][]
}

export function txRateFile(options: TxFileOptions = {}): string {
  const quarter = options.quarter ?? '20263'
  const rows = options.rows ?? Object.values(TX_AREAS)
  const month = `${quarter.slice(0, 4)}${String((Number(quarter.slice(4)) - 1) * 3 + 1).padStart(2, '0')}`
  const filing = Array.from({ length: 16 }, (_, i) => {
    const [kind, period, due] = i < 4 ? ['q', `${quarter.slice(0, 4)}${i + 1}`, `${i * 3 + 4}/20/${quarter.slice(0, 4)}`] : ['m', `${quarter.slice(0, 4)}${String(i - 3).padStart(2, '0')}`, `${i - 2}/20/${quarter.slice(0, 4)}`]
    return options.paddedFiling ? [period!, kind!, due!, ...Array(9).fill('')] : [kind!, period!, due!]
  })
  const areas = [...rows.map((row) => row.flatMap((triple) => triple ?? NA)), ...(options.extraLines ?? [])]
  const control = ['1', quarter, month, `"${quarter.slice(0, 4)} - ${quarter.slice(4)}th"`, '0.0625', '0', String(options.declared ?? areas.length), '"Rates effective for the quarter"']
  const text = [control, ...filing, ...areas].map((fields) => fields.join('\t')).join('\r\n') + '\r\n'
  return options.bom ? `\uFEFF${text}` : text
}
