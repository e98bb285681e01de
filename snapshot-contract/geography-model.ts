// What the geography build hands to feeds and to the compiler. All FIPS codes are text with
// leading zeros kept: county = 5 digits (state + county), place = 7 digits (state + place).

export type GeoCounty = { fips: string; state: string; name: string }

export type GeoZipCounty = {
  fips: string
  /** HUD TOT_RATIO: share of all addresses (0..1); without HUD, the county's share of the ZCTA's land */
  weight: number
  /** HUD RES_RATIO: share of residential addresses (0..1); without HUD, the same land share */
  residentialWeight: number
}

export type GeoZipPlace = {
  geoid: string
  name: string
  /** county (5-digit) the place is bound in for this ZIP */
  countyFips: string
  /**
   * how the binding was made: USPS preferred city matched to a Census place, the ZIP centroid
   * inside a place polygon, or the Census ZCTA→place relationship file (land shares)
   */
  method: 'preferred_city' | 'centroid_polygon' | 'zcta_area'
  /** with `zcta_area`: the place's share of the ZCTA's land (0..1; a ZIP's shares sum to at most 1) */
  share?: number
}

export type GeoZip = {
  zip: string
  /** USPS preferred state (HUD, else the USPS ZIP list) */
  state: string
  /** USPS preferred city, upper case (HUD, else the USPS ZIP list) */
  city: string
  /** counties with addresses (or land), largest weight first; HUD county 99999 (unassigned) removed */
  counties: GeoZipCounty[]
  /** the taxing place(s) the ZIP is bound to; empty when it lies outside any incorporated place */
  places: GeoZipPlace[]
  lat: number | null
  lng: number | null
  /** zcta: Census internal point; usps: the USPS ZIP list's point (a ZIP with no ZCTA); county: inside its largest county */
  centroidSource: 'zcta' | 'usps' | 'county' | null
  /** true when the ZIP is a Census ZCTA; false for PO-box / unique ZIPs (trap P28) */
  zcta: boolean
  /** states of the counties holding its addresses; more than one for a straddling ZIP */
  states: string[]
}

export type GeoPlace = {
  geoid: string
  state: string
  /** name without the Census legal suffix: "Springfield" */
  name: string
  /** Census name as published: "Springfield city" */
  fullName: string
  kind: 'incorporated' | 'cdp'
  counties: { fips: string; share: number }[]
  /** 2020 population (Geocorr); 0 when not known (no Geocorr table held) */
  population: number
  /** land area in m² (Census ZCTA→place file), when held: ranks same-named places when population is not known */
  landArea?: number
  lat: number | null
  lng: number | null
}

/** One polygon layer feature; rings are flat [x0, y0, x1, y1, …] in lng/lat, even-odd filled. */
export type GeoShape = {
  id: string
  state: string
  bbox: [number, number, number, number]
  rings: Float64Array[]
}

export type Geography = {
  zips: Map<string, GeoZip>
  counties: Map<string, GeoCounty>
  places: Map<string, GeoPlace>
  /** ZIPs whose addresses or counties lie in more than one state, or outside their USPS state */
  straddlers: { zip: string; uspsState: string; states: string[]; reason: string }[]
  countyShapes: GeoShape[]
  placeShapes: GeoShape[]
  /** file name → sha256 of every input read */
  inputs: Record<string, string>
}
