// Pipeline settings, read from the environment once and validated before any work starts.
import path from 'node:path'
import * as z from 'zod'

// The standard proxy variables are read where a request is made (snapshot-contract/outbound-http.ts, per URL); here a
// value that is no URL stops the run before any work, instead of failing every download.
const proxyUrl = z
  .string()
  .optional()
  .refine((value) => !value || URL.canParse(value.includes('://') ? value : `http://${value}`), 'a proxy URL such as http://proxy.example:3128')
const ProxyEnv = z.object({
  HTTPS_PROXY: proxyUrl.describe('proxy for https downloads (CONNECT tunnel); https_proxy too'),
  https_proxy: proxyUrl,
  HTTP_PROXY: proxyUrl.describe('proxy for http downloads; http_proxy too'),
  http_proxy: proxyUrl,
  ALL_PROXY: proxyUrl.describe('proxy for either scheme when the one above is unset; all_proxy too'),
  all_proxy: proxyUrl,
})

const StateList = z
  .string()
  .regex(/^[a-zA-Z]{2}(,[a-zA-Z]{2})*$/, 'a comma-separated list of 2-letter state codes')
  .optional()

const PipelineEnv = ProxyEnv.extend({
  TAXATLAS_MIRROR: z
    .string()
    .min(1)
    .optional()
    .describe('base URL or directory laid out as <feed>/<file name>; unset = official URLs'),
  TAXATLAS_DROPS: z.string().min(1).default('drops').describe('manual-drop directory'),
  TAXATLAS_GEO: z
    .string()
    .min(1)
    .optional()
    .describe('geography inputs: a directory (offline, files found by name) or a base URL laid out as census-rel2020/, census-codes2020/, census-places-<vintage>/; unset = the publishers'),
  TAXATLAS_HUD_TOKEN: z
    .string()
    .trim()
    .min(1)
    .optional()
    .describe('HUD User API token: when set, ZIP→county shares come from the HUD/USPS crosswalk (address ratios) instead of Census land areas'),
  TAXATLAS_GEO_CENSUS_VINTAGE: z
    .string()
    .regex(/^20\d{2}$/, 'a year such as 2015')
    .default('2015')
    .describe('Census cartographic boundary files (places, states) vintage to download'),
  TAXATLAS_PIN: z
    .string()
    .regex(/^[a-zA-Z]{2}=[^,=/\\]+(,[a-zA-Z]{2}=[^,=/\\]+)*$/, 'a comma-separated list of ST=<file name as published>')
    .optional()
    .describe('editions held by the operator instead of the newest listed one, e.g. GA=GAR2026Q2FEB19.csv'),
  TAXATLAS_SIZE_JUMP_LIMIT: z.coerce
    .number()
    .gt(1)
    .default(10)
    .describe('a file this many times larger or smaller than the one in service is refused'),
  TAXATLAS_ARTIFACTS: z.string().min(1).default('artifacts').describe('published snapshots'),
  TAXATLAS_BUILD: z.string().min(1).default('build').describe('raw downloads and staging'),
  TAXATLAS_STATES: StateList
    .describe('refresh only these states; the others keep their previous data'),
  TAXATLAS_NOW: z.iso.datetime().optional().describe('clock override for reproducible runs'),
  TAXATLAS_ACCEPT_ROW_GROWTH: StateList
    .describe('states whose source may have more than 3x the rows of the previous edition in this run (otherwise such a state fails and keeps its previous data)'),
  TAXATLAS_TRIAL_DISAGREEMENT_LIMIT: z.coerce
    .number()
    .min(0)
    .max(1)
    .default(0.4)
    .describe('a new official feed on trial that disagrees with the aggregator drop on more than this share of ZIPs is held back (the aggregator keeps serving)'),
  TAXATLAS_ACCEPT_OFFICIAL: StateList
    .describe('states whose new official feed the operator accepts whatever its disagreement with the aggregator'),
  TAXATLAS_FETCH_TIMEOUT_MS: z.coerce.number().int().positive().default(60_000).describe('per-request timeout'),
  TAXATLAS_FETCH_RETRIES: z.coerce.number().int().nonnegative().default(3).describe('retries after a failed request'),
})

export type SourceLocation = { kind: 'official' } | { kind: 'url'; base: string } | { kind: 'dir'; root: string }

export type PipelineSettings = {
  mirror: SourceLocation
  dropsDir: string
  /** where geography inputs come from: the publishers, a mirror URL, or a local directory */
  geo: SourceLocation
  geoVintage: { census: string }
  /** HUD User API token (TAXATLAS_HUD_TOKEN); null: no HUD crosswalk unless a TAXATLAS_GEO directory holds one */
  hudToken: string | null
  /** state code → file names pinned by the operator (TAXATLAS_PIN) */
  pins: ReadonlyMap<string, readonly string[]>
  sizeJumpLimit: number
  artifactsDir: string
  buildDir: string
  states: string[] | null
  /** states whose row count may grow past ROW_GROWTH_LIMIT × the previous edition's (refresh.ts) */
  acceptRowGrowth: string[]
  /** share of ZIPs a feed on trial may disagree with the aggregator on (official-trial.ts) */
  trialDisagreementLimit: number
  /** states whose feed on trial the operator accepts (TAXATLAS_ACCEPT_OFFICIAL) */
  acceptOfficial: string[]
  now: Date
  fetchTimeoutMs: number
  fetchRetries: number
}

export class SettingsError extends Error {}

export function readPipelineSettings(env: NodeJS.ProcessEnv = process.env): PipelineSettings {
  const parsed = PipelineEnv.safeParse(env)
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`)
    throw new SettingsError(`invalid settings:\n${lines.join('\n')}`)
  }
  const e = parsed.data
  return {
    mirror: locationSetting(e.TAXATLAS_MIRROR),
    dropsDir: path.resolve(e.TAXATLAS_DROPS),
    geo: locationSetting(e.TAXATLAS_GEO),
    geoVintage: { census: e.TAXATLAS_GEO_CENSUS_VINTAGE },
    hudToken: e.TAXATLAS_HUD_TOKEN ?? null,
    pins: pinsSetting(e.TAXATLAS_PIN),
    sizeJumpLimit: e.TAXATLAS_SIZE_JUMP_LIMIT,
    artifactsDir: path.resolve(e.TAXATLAS_ARTIFACTS),
    buildDir: path.resolve(e.TAXATLAS_BUILD),
    states: e.TAXATLAS_STATES ? stateList(e.TAXATLAS_STATES) : null,
    acceptRowGrowth: stateList(e.TAXATLAS_ACCEPT_ROW_GROWTH),
    trialDisagreementLimit: e.TAXATLAS_TRIAL_DISAGREEMENT_LIMIT,
    acceptOfficial: stateList(e.TAXATLAS_ACCEPT_OFFICIAL),
    now: e.TAXATLAS_NOW ? new Date(e.TAXATLAS_NOW) : new Date(),
    fetchTimeoutMs: e.TAXATLAS_FETCH_TIMEOUT_MS,
    fetchRetries: e.TAXATLAS_FETCH_RETRIES,
  }
}

const stateList = (value: string | undefined): string[] => (value ? value.toUpperCase().split(',') : [])

function pinsSetting(value: string | undefined): Map<string, string[]> {
  const pins = new Map<string, string[]>()
  for (const pair of value ? value.split(',') : []) {
    const [state, fileName] = pair.split('=') as [string, string]
    const code = state.toUpperCase()
    pins.set(code, [...(pins.get(code) ?? []), fileName.trim()])
  }
  return pins
}

function locationSetting(value: string | undefined): SourceLocation {
  if (!value) return { kind: 'official' }
  if (/^https?:\/\//i.test(value)) return { kind: 'url', base: value.replace(/\/+$/, '') }
  return { kind: 'dir', root: path.resolve(value) }
}
