// Settings of the optional upstream geocoder, read from the environment. Unset URL = no geocoder:
// address lookups then resolve from the snapshot alone.
import * as z from 'zod'
import { settingsError } from '../base/settings-error.ts'
import { CENSUS_DEFAULT_BENCHMARK, CENSUS_DEFAULT_VINTAGE, type CensusGeocoderOptions } from './census-geocoder.ts'

const GeocoderEnv = z.object({
  TAXATLAS_GEOCODER_URL: z
    .union([z.literal(''), z.url({ protocol: /^https?$/ })])
    .optional()
    .describe('Census Geocoder base URL, e.g. https://geocoding.geo.census.gov/geocoder; unset = off'),
  TAXATLAS_GEOCODER_TIMEOUT_MS: z.coerce.number().int().positive().default(3_000).describe('whole-request timeout'),
  TAXATLAS_GEOCODER_BENCHMARK: z.string().min(1).default(CENSUS_DEFAULT_BENCHMARK).describe('Census benchmark name'),
  TAXATLAS_GEOCODER_VINTAGE: z.string().min(1).default(CENSUS_DEFAULT_VINTAGE).describe('Census vintage name'),
})

export type GeocoderSettings = Required<Omit<CensusGeocoderOptions, 'fetch'>>

/** null when no geocoder is configured; throws SettingsError for a value that cannot be used. */
export function readGeocoderSettings(env: NodeJS.ProcessEnv = process.env): GeocoderSettings | null {
  const parsed = GeocoderEnv.safeParse(env)
  if (!parsed.success) throw settingsError(parsed.error.issues)
  const e = parsed.data
  if (!e.TAXATLAS_GEOCODER_URL) return null
  return {
    baseUrl: e.TAXATLAS_GEOCODER_URL,
    timeoutMs: e.TAXATLAS_GEOCODER_TIMEOUT_MS,
    benchmark: e.TAXATLAS_GEOCODER_BENCHMARK,
    vintage: e.TAXATLAS_GEOCODER_VINTAGE,
  }
}
