// Answers of the Census Geocoder `geographies/onelineaddress` (benchmark Public_AR_Current,
// vintage Current_Current, format=json) in its documented shape, trimmed to a few layers and
// fields but otherwise as the API sends them.

const input = (address: string) => ({
  address: { address },
  vintage: { isDefault: true, id: '4', vintageName: 'Current_Current', vintageDescription: 'Current Vintage - Current Benchmark' },
  benchmark: { isDefault: true, id: '4', benchmarkName: 'Public_AR_Current', benchmarkDescription: 'Public Address Ranges - Current Benchmark' },
})

export const censusAnswer = (address: string, addressMatches: unknown[]) => ({ result: { input: input(address), addressMatches } })

const WHITE_HOUSE = {
  tigerLine: { side: 'L', tigerLineId: '76225813' },
  geographies: {
    States: [
      { STATENS: '01702382', GEOID: '11', STATE: '11', BASENAME: 'District of Columbia', STUSAB: 'DC', NAME: 'District of Columbia', LSADC: '00', FUNCSTAT: 'A', MTFCC: 'G4000', REGION: '3', DIVISION: '5', OID: '27490331115189', OBJECTID: 29 },
    ],
    Counties: [
      { GEOID: '11001', STATE: '11', COUNTY: '001', BASENAME: 'District of Columbia', NAME: 'District of Columbia', COUNTYNS: '01702382', COUNTYCC: 'H6', LSADC: '00', FUNCSTAT: 'F', MTFCC: 'G4020', OID: '27590331264532', OBJECTID: 1284 },
    ],
    'Incorporated Places': [
      { GEOID: '1150000', STATE: '11', PLACE: '50000', BASENAME: 'Washington', NAME: 'Washington city', PLACENS: '02390665', LSADC: '25', FUNCSTAT: 'A', MTFCC: 'G4110', OID: '280403965729098', OBJECTID: 9733 },
    ],
    'Census Tracts': [{ GEOID: '11001006202', STATE: '11', COUNTY: '001', TRACT: '006202', NAME: 'Census Tract 62.02', BASENAME: '62.02' }],
  },
  coordinates: { x: -77.03654395730786, y: 38.89869091865551 },
  addressComponents: {
    zip: '20500', streetName: 'PENNSYLVANIA', preType: '', city: 'WASHINGTON', preDirection: '', suffixDirection: 'NW',
    fromAddress: '1600', state: 'DC', suffixType: 'AVE', toAddress: '1698', suffixQualifier: '', preQualifier: '',
  },
  matchedAddress: '1600 PENNSYLVANIA AVE NW, WASHINGTON, DC, 20500',
}

const SPACE_NEEDLE = {
  tigerLine: { side: 'R', tigerLineId: '638675219' },
  geographies: {
    States: [{ STATENS: '01779804', GEOID: '53', STATE: '53', BASENAME: 'Washington', STUSAB: 'WA', NAME: 'Washington', LSADC: '00', MTFCC: 'G4000' }],
    Counties: [
      { GEOID: '53033', STATE: '53', COUNTY: '033', BASENAME: 'King', NAME: 'King County', COUNTYNS: '01531933', COUNTYCC: 'H1', LSADC: '06', FUNCSTAT: 'A', MTFCC: 'G4020' },
    ],
    'Incorporated Places': [
      { GEOID: '5363000', STATE: '53', PLACE: '63000', BASENAME: 'Seattle', NAME: 'Seattle city', PLACENS: '02411856', LSADC: '25', FUNCSTAT: 'A', MTFCC: 'G4110' },
    ],
    'Census Tracts': [{ GEOID: '53033007200', STATE: '53', COUNTY: '033', TRACT: '007200', NAME: 'Census Tract 72', BASENAME: '72' }],
  },
  coordinates: { x: -122.34930614287946, y: 47.62044830733082 },
  addressComponents: {
    zip: '98109', streetName: 'BROAD', preType: '', city: 'SEATTLE', preDirection: '', suffixDirection: '',
    fromAddress: '400', state: 'WA', suffixType: 'ST', toAddress: '498', suffixQualifier: '', preQualifier: '',
  },
  matchedAddress: '400 BROAD ST, SEATTLE, WA, 98109',
}

// Unincorporated: the point lies in a census-designated place, which levies no tax of its own.
const EAST_LOS_ANGELES = {
  tigerLine: { side: 'L', tigerLineId: '141627447' },
  geographies: {
    States: [{ STATENS: '01779778', GEOID: '06', STATE: '06', BASENAME: 'California', STUSAB: 'CA', NAME: 'California', LSADC: '00', MTFCC: 'G4000' }],
    Counties: [
      { GEOID: '06037', STATE: '06', COUNTY: '037', BASENAME: 'Los Angeles', NAME: 'Los Angeles County', COUNTYNS: '00277283', COUNTYCC: 'H1', LSADC: '06', FUNCSTAT: 'A', MTFCC: 'G4020' },
    ],
    'Incorporated Places': [],
    'Census Designated Places': [
      { GEOID: '0620802', STATE: '06', PLACE: '20802', BASENAME: 'East Los Angeles', NAME: 'East Los Angeles CDP', LSADC: '57', FUNCSTAT: 'S', MTFCC: 'G4210' },
    ],
  },
  coordinates: { x: -118.17143066298418, y: 34.03293795946327 },
  addressComponents: {
    zip: '90022', streetName: '3RD', preType: '', city: 'LOS ANGELES', preDirection: 'E', suffixDirection: '',
    fromAddress: '4801', state: 'CA', suffixType: 'ST', toAddress: '4899', suffixQualifier: '', preQualifier: '',
  },
  matchedAddress: '4801 E 3RD ST, LOS ANGELES, CA, 90022',
}

/** One-line addresses the fake geocoder matches (keyed upper-case, spaces collapsed), best match first. */
export const CENSUS_MATCHES: Record<string, unknown[]> = {
  '1600 PENNSYLVANIA AVE NW, WASHINGTON, DC 20500': [WHITE_HOUSE],
  '400 BROAD ST, SEATTLE, WA 98109': [SPACE_NEEDLE],
  '4801 E 3RD ST, LOS ANGELES, CA 90022': [EAST_LOS_ANGELES],
  // An ambiguous input the API answers with two candidates.
  '400 BROAD ST': [SPACE_NEEDLE, { ...WHITE_HOUSE, matchedAddress: '400 BROAD ST, WASHINGTON, DC, 20500' }],
}
