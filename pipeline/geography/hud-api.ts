// HUD-USPS ZIP→county crosswalk through the HUD User API (publisher-evidence.md C.5), used when
// TAXATLAS_HUD_TOKEN is set: one request per state (`query=All` can time out), the rows written
// out as a crosswalk CSV in HUD's file layout so the build reads API and file alike.
import * as z from 'zod'
import { FetchError, httpGet } from '../fetch/fetch-source.ts'
import type { UspsZip } from './usps-zips.ts'

export const HUD_API_URL = 'https://www.huduser.gov/hudapi/public/usps'
/** HUD's crosswalk type for ZIP → county. */
const ZIP_COUNTY_TYPE = '2'

// Field names for city and state in results are unconfirmed (C.5): every spelling seen is accepted.
const HudResult = z
  .object({
    zip: z.coerce.string(),
    geoid: z.coerce.string(),
    res_ratio: z.coerce.number(),
    tot_ratio: z.coerce.number(),
    city: z.string().optional(),
    usps_zip_pref_city: z.string().optional(),
    USPS_ZIP_PREF_CITY: z.string().optional(),
    state: z.string().optional(),
    usps_zip_pref_state: z.string().optional(),
    USPS_ZIP_PREF_STATE: z.string().optional(),
  })
  .loose()
const HudData = z.object({ results: z.array(HudResult) }).loose()
// `data` is an object for some queries and a list of such objects for others.
const HudResponse = z.object({ data: z.union([HudData, z.array(HudData)]) }).loose()

export type HudApiOptions = { token: string; baseUrl?: string; timeoutMs: number; retries: number }

/**
 * The crosswalk of `states` (USPS codes) as CSV text with HUD's columns. City and state come from
 * the results when HUD sends them, else from the USPS ZIP list (else the state asked for).
 */
export async function fetchHudCrosswalk(states: string[], usps: ReadonlyMap<string, UspsZip>, options: HudApiOptions): Promise<string> {
  const lines = ['ZIP,COUNTY,USPS_ZIP_PREF_CITY,USPS_ZIP_PREF_STATE,RES_RATIO,TOT_RATIO']
  for (const state of states) {
    for (const row of await fetchState(state, options)) {
      const zip = row.zip.padStart(5, '0')
      const city = row.usps_zip_pref_city ?? row.USPS_ZIP_PREF_CITY ?? row.city ?? usps.get(zip)?.city ?? ''
      const zipState = row.usps_zip_pref_state ?? row.USPS_ZIP_PREF_STATE ?? row.state ?? usps.get(zip)?.state ?? state
      lines.push([zip, row.geoid.padStart(5, '0'), csvField(city.toUpperCase()), zipState, row.res_ratio, row.tot_ratio].join(','))
    }
  }
  return `${lines.join('\n')}\n`
}

const csvField = (text: string) => (/[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text)

async function fetchState(state: string, options: HudApiOptions): Promise<z.infer<typeof HudResult>[]> {
  const url = `${options.baseUrl ?? HUD_API_URL}?type=${ZIP_COUNTY_TYPE}&query=${encodeURIComponent(state)}`
  const response = await httpGet(url, { timeoutMs: options.timeoutMs, retries: options.retries, headers: { authorization: `Bearer ${options.token}`, accept: 'application/json' } }, 'HUD API').catch((error: FetchError) => {
    if (error.status !== 401 && error.status !== 403) throw error
    throw new FetchError(`HUD API refused TAXATLAS_HUD_TOKEN (HTTP ${error.status}): the token is wrong, expired, or not registered for the USPS crosswalk dataset (${url})`)
  })
  let body: unknown
  try {
    body = JSON.parse(response.body.toString('utf8'))
  } catch (error) {
    throw new FetchError(`HUD API ${url}: the answer is not JSON (${(error as Error).message})`)
  }
  const parsed = HudResponse.safeParse(body)
  if (!parsed.success) throw new FetchError(`HUD API ${url}: unexpected answer (${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')})`)
  const results = [parsed.data.data].flat().flatMap((data) => data.results)
  if (results.length === 0) throw new FetchError(`HUD API ${url}: no crosswalk rows for ${state}`)
  return results
}
