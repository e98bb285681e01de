// Answers of the Census Geocoder `geographies/onelineaddress` (benchmark Public_AR_Current,
// vintage Current_Current, format=json) in its documented shape, trimmed to a few layers and
// fields but otherwise as the API sends them.

const input = (address: string) => ({
  address: { address },
  vintage: { isDefault: true, id: '4', vintageName: 'Current_Current', vintageDescription: 'Current Vintage - Current Benchmark' },
  benchmark: { isDefault: true, id: '4', benchmarkName: 'Public_AR_Current', benchmarkDescription: 'Public Address Ranges - Current Benchmark' },
})

export const censusAnswer = (address: string, addressMatches: unknown[]) => ({ result: { input: input(address), addressMatches } })

/** A Census match in the API's documented shape (the fields the adapter reads). */
export function censusMatch(match: { address: string; zip: string; state: string; county: [string, string]; place: [string, string] | null; x: number; y: number }) {
  return {
    matchedAddress: match.address,
    coordinates: { x: match.x, y: match.y },
    addressComponents: { zip: match.zip, state: match.state },
    geographies: {
      States: [{ STUSAB: match.state }],
      Counties: [{ GEOID: match.county[0], BASENAME: match.county[1], NAME: `${match.county[1]} County` }],
      'Incorporated Places': match.place ? [{ GEOID: match.place[0], BASENAME: match.place[1], NAME: `${match.place[1]} city` }] : [],
    },
  }
}

type Layer = Record<string, string | number>

type MatchParts = {
  matchedAddress: string
  coordinates: { x: number; y: number }
  tigerLine: { side: 'L' | 'R'; tigerLineId: string }
  /** the components that are set; the API sends the others as empty strings */
  components: { zip: string; state: string; city: string; streetName: string; suffixType: string; fromAddress: string; toAddress: string; preDirection?: string; suffixDirection?: string }
  state: Layer
  county: Layer
  /** empty outside any incorporated place */
  places: Layer[]
  /** further geography layers, which the adapter ignores */
  more: Record<string, Layer[]>
}

/** One entry of `addressMatches`, laid out as the API lays it out. */
const addressMatch = ({ matchedAddress, coordinates, tigerLine, components, state, county, places, more }: MatchParts) => ({
  tigerLine,
  geographies: { States: [state], Counties: [county], 'Incorporated Places': places, ...more },
  coordinates,
  addressComponents: { preType: '', preDirection: '', suffixDirection: '', suffixQualifier: '', preQualifier: '', ...components },
  matchedAddress,
})

const WHITE_HOUSE = addressMatch({
  matchedAddress: '1600 PENNSYLVANIA AVE NW, WASHINGTON, DC, 20500',
  coordinates: { x: -77.03654395730786, y: 38.89869091865551 },
  tigerLine: { side: 'L', tigerLineId: '76225813' },
  components: { zip: '20500', state: 'DC', city: 'WASHINGTON', streetName: 'PENNSYLVANIA', suffixType: 'AVE', suffixDirection: 'NW', fromAddress: '1600', toAddress: '1698' },
  state: { STATENS: '01702382', GEOID: '11', STATE: '11', BASENAME: 'District of Columbia', STUSAB: 'DC', NAME: 'District of Columbia', LSADC: '00', FUNCSTAT: 'A', MTFCC: 'G4000', REGION: '3', DIVISION: '5', OID: '27490331115189', OBJECTID: 29 },
  county: { GEOID: '11001', STATE: '11', COUNTY: '001', BASENAME: 'District of Columbia', NAME: 'District of Columbia', COUNTYNS: '01702382', COUNTYCC: 'H6', LSADC: '00', FUNCSTAT: 'F', MTFCC: 'G4020', OID: '27590331264532', OBJECTID: 1284 },
  places: [{ GEOID: '1150000', STATE: '11', PLACE: '50000', BASENAME: 'Washington', NAME: 'Washington city', PLACENS: '02390665', LSADC: '25', FUNCSTAT: 'A', MTFCC: 'G4110', OID: '280403965729098', OBJECTID: 9733 }],
  more: { 'Census Tracts': [{ GEOID: '11001006202', STATE: '11', COUNTY: '001', TRACT: '006202', NAME: 'Census Tract 62.02', BASENAME: '62.02' }] },
})

const SPACE_NEEDLE = addressMatch({
  matchedAddress: '400 BROAD ST, SEATTLE, WA, 98109',
  coordinates: { x: -122.34930614287946, y: 47.62044830733082 },
  tigerLine: { side: 'R', tigerLineId: '638675219' },
  components: { zip: '98109', state: 'WA', city: 'SEATTLE', streetName: 'BROAD', suffixType: 'ST', fromAddress: '400', toAddress: '498' },
  state: { STATENS: '01779804', GEOID: '53', STATE: '53', BASENAME: 'Washington', STUSAB: 'WA', NAME: 'Washington', LSADC: '00', MTFCC: 'G4000' },
  county: { GEOID: '53033', STATE: '53', COUNTY: '033', BASENAME: 'King', NAME: 'King County', COUNTYNS: '01531933', COUNTYCC: 'H1', LSADC: '06', FUNCSTAT: 'A', MTFCC: 'G4020' },
  places: [{ GEOID: '5363000', STATE: '53', PLACE: '63000', BASENAME: 'Seattle', NAME: 'Seattle city', PLACENS: '02411856', LSADC: '25', FUNCSTAT: 'A', MTFCC: 'G4110' }],
  more: { 'Census Tracts': [{ GEOID: '53033007200', STATE: '53', COUNTY: '033', TRACT: '007200', NAME: 'Census Tract 72', BASENAME: '72' }] },
})

// Unincorporated: the point lies in a census-designated place, which levies no tax of its own.
const EAST_LOS_ANGELES = addressMatch({
  matchedAddress: '4801 E 3RD ST, LOS ANGELES, CA, 90022',
  coordinates: { x: -118.17143066298418, y: 34.03293795946327 },
  tigerLine: { side: 'L', tigerLineId: '141627447' },
  components: { zip: '90022', state: 'CA', city: 'LOS ANGELES', streetName: '3RD', suffixType: 'ST', preDirection: 'E', fromAddress: '4801', toAddress: '4899' },
  state: { STATENS: '01779778', GEOID: '06', STATE: '06', BASENAME: 'California', STUSAB: 'CA', NAME: 'California', LSADC: '00', MTFCC: 'G4000' },
  county: { GEOID: '06037', STATE: '06', COUNTY: '037', BASENAME: 'Los Angeles', NAME: 'Los Angeles County', COUNTYNS: '00277283', COUNTYCC: 'H1', LSADC: '06', FUNCSTAT: 'A', MTFCC: 'G4020' },
  places: [],
  more: {
    'Census Designated Places': [{ GEOID: '0620802', STATE: '06', PLACE: '20802', BASENAME: 'East Los Angeles', NAME: 'East Los Angeles CDP', LSADC: '57', FUNCSTAT: 'S', MTFCC: 'G4210' }],
  },
})

/** One-line addresses the fake geocoder matches (keyed upper-case, spaces collapsed), best match first. */
export const CENSUS_MATCHES: Record<string, unknown[]> = {
  '1600 PENNSYLVANIA AVE NW, WASHINGTON, DC 20500': [WHITE_HOUSE],
  '400 BROAD ST, SEATTLE, WA 98109': [SPACE_NEEDLE],
  '4801 E 3RD ST, LOS ANGELES, CA 90022': [EAST_LOS_ANGELES],
  // An ambiguous input the API answers with two candidates.
  '400 BROAD ST': [SPACE_NEEDLE, { ...WHITE_HOUSE, matchedAddress: '400 BROAD ST, WASHINGTON, DC, 20500' }],
}
