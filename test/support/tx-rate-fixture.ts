// A Texas Comptroller taxrates.txt built from its documented layout (docs/data-sources.md#texas):
// tab-separated, CRLF, a control record, filing-due-date rows of period kind q and m, then one
// 12-field row per taxing area, `n/a` where a triple is absent. Codes follow the documented families
// (2… city, 3… transit, 4… county, 5…/6… district); the figures are the fixture's own.
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

export function txRateFile(options: { quarter?: string; rows?: TxRow[]; bom?: boolean; declared?: number } = {}): string {
  const quarter = options.quarter ?? '20263'
  const rows = options.rows ?? Object.values(TX_AREAS)
  const month = `${quarter.slice(0, 4)}${String((Number(quarter.slice(4)) - 1) * 3 + 1).padStart(2, '0')}`
  const filing = Array.from({ length: 16 }, (_, i) => (i < 4 ? ['q', `${quarter.slice(0, 4)}${i + 1}`, `${i * 3 + 4}/20/${quarter.slice(0, 4)}`] : ['m', `${quarter.slice(0, 4)}${String(i - 3).padStart(2, '0')}`, `${i - 2}/20/${quarter.slice(0, 4)}`]))
  const areas = rows.map((row) => row.flatMap((triple) => triple ?? NA))
  const control = ['1', quarter, month, `"${quarter.slice(0, 4)} - ${quarter.slice(4)}th"`, '0.0625', '0', String(options.declared ?? areas.length), '"Rates effective for the quarter"']
  const text = [control, ...filing, ...areas].map((fields) => fields.join('\t')).join('\r\n') + '\r\n'
  return options.bom ? `\uFEFF${text}` : text
}
