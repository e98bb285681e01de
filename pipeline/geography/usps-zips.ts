// USPS ZIP list from the `zipcodes` package (BSD; data from federalgovernmentzipcodes.us): every
// ZIP with its USPS city, state and a point, PO-box and unique ZIPs included. Used where no HUD
// crosswalk is held: the preferred city of every ZIP, and the ZIPs that have no ZCTA (trap P28).
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
export const USPS_ZIPS_FILE = require.resolve('zipcodes/lib/codes.js')

export type UspsZip = { zip: string; state: string; city: string; lat: number; lng: number }

type CodesModule = { codes: Record<string, { zip: string; latitude: number; longitude: number; city: string; state: string }> }

/** ZIP → USPS state, city (upper case, as HUD writes it) and point. */
export function readUspsZips(): Map<string, UspsZip> {
  const { codes } = require(USPS_ZIPS_FILE) as CodesModule
  const zips = new Map<string, UspsZip>()
  for (const code of Object.values(codes)) {
    if (!/^\d{5}$/.test(code.zip) || !Number.isFinite(code.latitude) || !Number.isFinite(code.longitude)) continue
    zips.set(code.zip, { zip: code.zip, state: code.state, city: code.city.trim().toUpperCase(), lat: code.latitude, lng: code.longitude })
  }
  return zips
}
