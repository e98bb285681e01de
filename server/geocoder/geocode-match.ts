// What a geocoder tells the lookup about one address: where it is and which county and
// incorporated place hold it.

export type GeocodeMatch = {
  /** the address as the geocoder standardized it */
  matchedAddress: string
  lat: number
  lng: number
  zip5: string
  /** USPS code, e.g. WA */
  state: string
  /** 5-digit state+county FIPS, e.g. 53033 */
  countyFips: string
  /** without its legal description, as the snapshot names counties: "King", not "King County" */
  countyName: string
  /** 7-digit state+place GEOID; null outside any incorporated place (a CDP is not a taxing body) */
  placeGeoid: string | null
  /** likewise "Seattle", not "Seattle city" */
  placeName: string | null
}

export type Geocoder = {
  /** null when the geocoder found no match; throws GeocoderUnavailableError when it cannot answer */
  geocodeAddress(oneLine: string): Promise<GeocodeMatch | null>
}
