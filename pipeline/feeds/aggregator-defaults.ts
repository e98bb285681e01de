// Where an aggregator row is not the rate most addresses of its ZIP pay, and the rate they do pay.
// Avalara's ZIP5 tables have one row per ZIP, and two kinds of row answer a part of the ZIP for all
// of it:
// - sub_zip_district: a district covering part of the ZIP folded into the whole ZIP (Missouri and
//   Kansas community-improvement and transportation-development districts, New Orleans 70112 with
//   the French Quarter district's 0.245%);
// - neighbour_region: a tax region named after a neighbouring place (85251, USPS SCOTTSDALE and
//   inside Scottsdale, filed under PHOENIX), or after another county than the one holding most of
//   the ZIP's addresses.
// The evidence is the other rows of the same city in the same county (for a ZIP in no city, the
// county's other rows in no city; for a row of another county, the rows filed under the ZIP's own
// county): when most of them (and at least MIN_AGREEING) agree on one combined rate, that rate is
// the ZIP's default and the row stays a candidate. A ZIP in no city filed under a neighbouring
// city's region without such agreement answers its row without the city's rate. Otherwise the row
// is answered as published.
import { distanceKm } from '../../snapshot-contract/geo-distance.ts'
import type { GeoPlace, Geography, GeoZip } from '../../snapshot-contract/geography-model.ts'
import type { CandidateBasis, ZipCandidate } from '../../snapshot-contract/model.ts'
import { placeMatchKey, placesByMatchKey } from '../../snapshot-contract/place-names.ts'
import { PREFERRED_SHARE } from './candidate-weights.ts'
import { countyWordFollows, leadingKey, regionCountyFinder, regionWords } from './region-names.ts'

/** Rows that must agree on the city's rate, besides being more than half of the city's other rows. */
export const MIN_AGREEING = 1

/** A place named by a tax region this near a ZIP's point (or in one of its counties) can be its neighbour. */
export const NEIGHBOUR_KM = 25

/**
 * The choice rules, each of which `make audit` measures on its own (consistency-audit.ts):
 *   sub_zip_district           a row above its city's agreed rate by its own special-district part
 *   neighbour_region_city      a ZIP inside its USPS city filed under a neighbouring place's region
 *   neighbour_region_no_city   a ZIP in no city filed under a nearby place's higher region
 *   no_city_city_rate          a ZIP in no city filed under a nearby city's region, with no other
 *                              city-less rows of the county agreeing on a lower rate: the row
 *                              without the city's rate
 *   other_county_region        a row filed under a region named for another county than the one
 *                              holding most of the ZIP's addresses, without a city rate
 */
export const AGGREGATOR_RULES = ['sub_zip_district', 'neighbour_region_city', 'neighbour_region_no_city', 'no_city_city_rate', 'other_county_region'] as const
export type AggregatorRule = (typeof AGGREGATOR_RULES)[number]

/** Which rules apply and the two figures they read; the service uses DEFAULT_RULE_SETTINGS. */
export type RuleSettings = { rules: ReadonlySet<AggregatorRule>; minAgreeing: number; neighbourKm: number }

export const DEFAULT_RULE_SETTINGS: RuleSettings = { rules: new Set(AGGREGATOR_RULES), minAgreeing: MIN_AGREEING, neighbourKm: NEIGHBOUR_KM }

/** The parts of an aggregator row (aggregator-drop.ts AvalaraRow) the rules read. */
export type AggregatorRow = { zip: string; taxRegionName: string; stateRate: number; cityRate: number; specialRate: number; combinedRate: number }

export type RowCandidate = { row: AggregatorRow; candidate: ZipCandidate; countyFips: string | null }

type Restated = { zip: string; kind: Extract<CandidateBasis, 'sub_zip_district' | 'neighbour_region'>; region: string; from: number; to: number }

/** The row without its city rate: what a ZIP in no city filed under a neighbouring city's region pays. */
const withoutCityRate = (r: RowCandidate): RowCandidate => ({
  ...r,
  row: { ...r.row, combinedRate: r.row.combinedRate - r.row.cityRate, cityRate: 0 },
  candidate: { ...r.candidate, placeName: '', stack: r.candidate.stack.filter((ref) => ref.level !== 'city') },
})

/** The rate more than half of `rows` (and at least MIN_AGREEING) share, with a row carrying it (one named `preferRegion` if any); null without such agreement. */
function agreedRate(rows: RowCandidate[], preferRegion: string, minAgreeing: number): RowCandidate | null {
  const counts = new Map<number, number>()
  for (const { row } of rows) counts.set(row.combinedRate, (counts.get(row.combinedRate) ?? 0) + 1)
  const [rate, count] = [...counts].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0] ?? [0, 0]
  if (count < minAgreeing || count * 2 <= rows.length) return null
  const carrying = rows.filter((r) => r.row.combinedRate === rate)
  const named = carrying.find((r) => placeMatchKey(r.row.taxRegionName) === preferRegion)
  // A lone row filed under another place than the city it should speak for is no evidence of that city's rate.
  if (!named && preferRegion !== '' && count < 2) return null
  return named ?? carrying[0]!
}

/** The most frequent special rate of each county's rows (the smaller on a tie). */
export function usualSpecialByCounty(rows: Pick<RowCandidate, 'row' | 'countyFips'>[]): Map<string | null, number> {
  const counts = new Map<string | null, Map<number, number>>()
  for (const { row, countyFips } of rows) {
    const of = counts.get(countyFips) ?? new Map<number, number>()
    of.set(row.specialRate, (of.get(row.specialRate) ?? 0) + 1)
    counts.set(countyFips, of)
  }
  return new Map([...counts].map(([county, of]) => [county, [...of].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]![0]]))
}

/** A ZIP in no city: its Census point lies in no incorporated place, and its USPS city names none. */
const inNoCity = (zip: GeoZip | undefined): boolean => zip?.centroidSource === 'zcta' && zip.places.length === 0

/**
 * The ZIP lies in the place its USPS city names: the geography bound that place alone, by its city
 * (and its Census point, where it has one: a PO-box ZIP has none to say otherwise), or by the
 * ZCTA→place land shares with the place its city names.
 */
const pointInUspsCity = (zip: GeoZip): boolean => {
  const only = zip.places.length === 1 ? zip.places[0]! : null
  return only?.method === 'preferred_city' || (zip.centroidSource === 'zcta' && only?.method === 'zcta_area' && placeMatchKey(only.name) === placeMatchKey(zip.city))
}

function group(rows: RowCandidate[], key: (r: RowCandidate) => string | null): Map<string, RowCandidate[]> {
  const groups = new Map<string, RowCandidate[]>()
  for (const r of rows) {
    const k = key(r)
    if (k === null) continue
    const list = groups.get(k)
    if (list) list.push(r)
    else groups.set(k, [r])
  }
  return groups
}

/**
 * The candidates of an aggregator state's rows: each row's own candidate, except where the row is a
 * sub-ZIP district or a neighbour region by the evidence above; then the city's agreed rate is the
 * default (`usual_rate`) and the row a second candidate. Notes say how many rows and which.
 */
export function aggregatorDefaults(
  geography: Geography,
  state: string,
  rows: RowCandidate[],
  settings: RuleSettings = DEFAULT_RULE_SETTINGS,
): { candidates: ZipCandidate[]; notes: string[] } {
  const { rules, minAgreeing, neighbourKm } = settings
  const placesByKey = placesByMatchKey([...geography.places.values()].filter((p) => p.state === state && p.kind === 'incorporated'))
  /**
   * The place a tax region is named for: its longest leading words naming an incorporated place in
   * one of the ZIP's counties or within NEIGHBOUR_KM of its point ("WEST HOLLYWOOD TOURISM
   * IMPROVEMENT DISTRICT" → WEST HOLLYWOOD). A name no such place bears ("BUTLER" for a Butler
   * County ZIP, the village lying far away) names the county or a district, not a neighbour.
   */
  const regionPlace = (r: RowCandidate): string | null => {
    const zip = geography.zips.get(r.row.zip)
    const counties = new Set(zip?.counties.map((c) => c.fips))
    const near = (place: GeoPlace) =>
      place.counties.some((c) => counties.has(c.fips)) ||
      (zip?.lat != null && zip.lng != null && place.lat !== null && place.lng !== null && distanceKm(zip.lat, zip.lng, place.lat, place.lng) <= neighbourKm)
    const words = regionWords(r.row.taxRegionName)
    for (let count = words.length; count > 0; count--) {
      const key = leadingKey(words, count)
      if ((placesByKey.get(key) ?? []).some(near) && !countyWordFollows(words, count)) return key
    }
    return null
  }
  const regionKeys = new Map(rows.map((r) => [r, regionPlace(r)]))
  // A region named exactly like the ZIP's own county ("WASHINGTON" in Washington County) is the county's.
  const regionCounty = regionCountyFinder(geography, state)
  const cityKey = (r: RowCandidate) => placeMatchKey(geography.zips.get(r.row.zip)?.city ?? '')
  const inCounty = (key: (r: RowCandidate) => string | null) => (r: RowCandidate) => (r.countyFips && key(r) ? `${r.countyFips}|${key(r)}` : null)
  const byCity = group(rows, inCounty(cityKey))
  const countySpecial = usualSpecialByCounty(rows)
  // A city's own rows: those filed under a region named for it, without a special rate above the
  // county's usual one ("COLUMBIA", not "COLUMBIA … CID").
  const plain = (r: RowCandidate) => r.countyFips !== null && r.row.specialRate <= countySpecial.get(r.countyFips)!
  const byRegion = group(rows.filter(plain), inCounty((r) => regionKeys.get(r)!))
  // The county's unincorporated rows: ZIPs in no city, filed under the county's name or no nearby
  // place ("LOS ANGELES" is Los Angeles County's for a ZIP in no city), with no extra district.
  const countyRegion = (r: RowCandidate) => regionCounty(regionWords(r.row.taxRegionName)) === r.countyFips
  const byUnincorporated = group(
    rows.filter((r) => plain(r) && (!regionKeys.get(r) || countyRegion(r)) && inNoCity(geography.zips.get(r.row.zip))),
    (r) => r.countyFips,
  )
  // The county's own rows: filed under its name, with no city rate and no extra district.
  const byCountyRegion = group(rows.filter((r) => plain(r) && countyRegion(r) && r.row.cityRate === 0), (r) => r.countyFips)

  const restated: Restated[] = []
  const candidates = rows.flatMap((r): ZipCandidate[] => {
    const { row, candidate, countyFips } = r
    const zip = geography.zips.get(row.zip)
    if (!zip || !countyFips) return [candidate]
    const city = cityKey(r)
    const region = regionKeys.get(r)
    const others = (list: RowCandidate[] | undefined) => (list ?? []).filter((other) => other !== r)
    let usual: RowCandidate | null = null
    let kind: Restated['kind'] | null = null
    const extraDistrict = row.specialRate > countySpecial.get(countyFips)!
    const namedCounty = regionCounty(regionWords(row.taxRegionName))
    const cityRows = () => (pointInUspsCity(zip) ? agreedRate(others(byRegion.get(`${countyFips}|${city}`)), city, minAgreeing) : null)
    // A ZIP neither its Census point nor its USPS name binds to a city, filed under a nearby city's
    // region with a city rate: the city rate is the neighbour's (a region named like the county
    // carries none of its own, so one with a city rate names the city of that name).
    // A region named like the start of the ZIP's own postal name (MANCHESTER for MANCHESTER CENTER,
    // a village's name for its town), or holding it (BRUCEVILLE-EDDY for EDDY), names the ZIP's
    // own community, not a neighbour.
    const ownCommunity = (key: string) => city.startsWith(key) || ` ${regionWords(row.taxRegionName).join(' ')} `.includes(` ${regionWords(zip.city).join(' ')} `)
    const neighbourCityRate = rules.has('no_city_city_rate') && zip.places.length === 0 && row.cityRate > 0 && !!region && !ownCommunity(region)
    if (rules.has('other_county_region') && namedCounty !== null && namedCounty !== countyFips && row.cityRate === 0) {
      // A row of another county (the aggregator files many rural ZIPs under a neighbouring county)
      // carries that county's rates: the ZIP's city's rows tell its rate, else its own county's.
      usual = cityRows() ?? agreedRate(others(byCountyRegion.get(countyFips)), '', minAgreeing)
      kind = usual && usual.row.combinedRate !== row.combinedRate ? 'neighbour_region' : null
    } else if (inNoCity(zip) || neighbourCityRate) {
      // Only a neighbour's higher rate is set aside here: nothing tells which part of the county the
      // ZIP's districts cover, and a county whose towns tax without being Census places (Vermont)
      // has city-less ZIPs at several rates.
      if (!region || ownCommunity(region)) return [candidate]
      usual = rules.has('neighbour_region_no_city') && inNoCity(zip) && namedCounty !== countyFips ? agreedRate(others(byUnincorporated.get(countyFips)), '', minAgreeing) : null
      // Without other city-less rows agreeing on a lower rate, the row's own layers tell the most.
      if (neighbourCityRate && !(usual && row.combinedRate > usual.row.combinedRate)) usual = withoutCityRate(r)
      kind = usual && row.combinedRate > usual.row.combinedRate ? 'neighbour_region' : null
    } else if (rules.has('neighbour_region_city') && region && region !== city && namedCounty !== countyFips && pointInUspsCity(zip)) {
      usual = cityRows()
      kind = usual && usual.row.combinedRate !== row.combinedRate ? 'neighbour_region' : null
    } else if (rules.has('sub_zip_district') && extraDistrict) {
      usual = agreedRate(others(byCity.get(`${countyFips}|${city}`)), city, minAgreeing)
      const excess = usual ? row.combinedRate - usual.row.combinedRate : 0
      // Only the district's own part may be set aside: the rest of the row must be the city's.
      kind = usual && excess > 0 && excess <= row.specialRate && usual.row.stateRate === row.stateRate ? 'sub_zip_district' : null
    }
    if (!usual || !kind) return [candidate]
    restated.push({ zip: row.zip, kind, region: row.taxRegionName, from: row.combinedRate, to: usual.row.combinedRate })
    return [
      { ...usual.candidate, zip: row.zip, countyFips: candidate.countyFips, countyName: candidate.countyName, weight: PREFERRED_SHARE, basis: 'usual_rate' },
      { ...candidate, weight: 1 - PREFERRED_SHARE, basis: kind },
    ]
  })
  return { candidates, notes: restatedNotes(restated) }
}

function restatedNotes(restated: Restated[]): string[] {
  const described: Record<Restated['kind'], string> = {
    sub_zip_district: 'carry a special rate above their county\'s usual one for a district covering part of the ZIP',
    neighbour_region: 'are filed under a tax region named for a neighbouring place or another county, not the city their USPS name and Census point agree on (or their county, for a ZIP in no city)',
  }
  return (['sub_zip_district', 'neighbour_region'] as const).flatMap((kind) => {
    const rows = restated.filter((r) => r.kind === kind)
    if (rows.length === 0) return []
    const sample = rows.slice(0, 8).map((r) => `${r.zip} ${r.region} ${r.from}→${r.to}`).join(', ')
    return [`${rows.length} rows ${described[kind]}: the rate the other ZIPs of their city (or of the county's unincorporated area, or filed under their own county) in the county agree on is their default (for a ZIP in no city without such agreement, the row without the neighbour's city rate), the row a candidate (${kind}; e.g. ${sample}${rows.length > 8 ? ', …' : ''})`]
  })
}
