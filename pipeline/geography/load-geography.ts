// The geography a run compiles against. TAXATLAS_GEO set to a directory reads the inputs there
// (the offline override, found by file name: build-geography.ts findInputFiles); otherwise each
// input is downloaded from its publisher with a plain GET (or from a mirror base URL laid out in
// folders) and kept under build/raw/<folder>/ like a rate file:
//
// | input | publisher URL | mirror folder |
// | Census 2020 ZCTA→county relationship | www2.census.gov/geo/docs/maps-data/data/rel2020/zcta520/tab20_zcta520_county20_natl.txt | census-rel2020/ |
// | Census 2020 ZCTA→place relationship | …/rel2020/zcta520/tab20_zcta520_place20_natl.txt | census-rel2020/ |
// | Census 2020 place-by-county list | www2.census.gov/geo/docs/reference/codes2020/national_place_by_county2020.txt | census-codes2020/ |
// | Census state polygons | www2.census.gov …/GENZ<YYYY>/shp/cb_<YYYY>_us_state_500k.zip | census-places-<YYYY>/ |
// | Census place polygons, per state | …/GENZ<YYYY>/shp/cb_<YYYY>_<SS>_place_500k.zip | census-places-<YYYY>/ |
//
// Each input is downloaded on its own and its structure checked as it arrives, by its reader's own
// checks (a required column, a shapefile member or attribute): one that fails (Census answered
// scripted clients 403 for a while, E10; any 4xx/5xx; the network; a file that arrives but cannot be
// read) is taken from the copy held under build/raw from an earlier run, the one the data in service
// was built on first, and the refresh says so; only an input never held fails the run. One
// publisher down never stops another publisher's states.
//
// The HUD/USPS crosswalk (address shares) is used only when TAXATLAS_HUD_TOKEN is set (HUD's API;
// its file download needs a sign-in) or a crosswalk file lies in a TAXATLAS_GEO directory.
// The cartographic vintage is a setting (TAXATLAS_GEO_CENSUS_VINTAGE).
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import pLimit from 'p-limit'
import type { Geography } from '../../snapshot-contract/geography-model.ts'
import { sha256Hex, writeAtomically } from '../../snapshot-contract/file-bytes.ts'
import { FetchError, fetchSource, keptCopy, type FetchedSource, type SourceRequest } from '../fetch/fetch-source.ts'
import type { PipelineSettings, SourceLocation } from '../settings.ts'
import { buildGeographyFrom, findInputFiles, geographyInputFiles, type GeographyInput, type GeographyInputs } from './build-geography.ts'
import { assertCensusTableShape, isCensusTable, PLACE_BY_COUNTY_FILE, ZCTA_COUNTY_FILE, ZCTA_PLACE_FILE } from './census-relationship.ts'
import { fetchHudCrosswalk } from './hud-api.ts'
import { assertShapefileShape, readStateCodes } from './place-shapes.ts'
import { readUspsZips } from './usps-zips.ts'

export const CENSUS_CARTOGRAPHIC_URL = 'https://www2.census.gov/geo/tiger/'
export const CENSUS_RELATIONSHIP_URL = 'https://www2.census.gov/geo/docs/maps-data/data/rel2020/zcta520/'
export const CENSUS_CODES_URL = 'https://www2.census.gov/geo/docs/reference/codes2020/'
export const CENSUS_RELATIONSHIP_FOLDER = 'census-rel2020'
export const CENSUS_CODES_FOLDER = 'census-codes2020'

// Census serves many small files; a few at a time is polite and enough.
const DOWNLOAD_CONCURRENCY = 4
/** State FIPS codes the HUD crosswalk is asked for: the states, DC and Puerto Rico. */
const HUD_STATE = (fips: string) => fips <= '56' || fips === '72'

type Reporter = { info(message: string): void }

export async function loadGeography(settings: PipelineSettings, reporter?: Reporter): Promise<Geography> {
  return buildGeographyFrom((await resolveGeographyInputs(settings, reporter)).inputs)
}

/** The inputs, and a line for each one not downloaded this run, naming why and the copy used in its place. */
export type ResolvedGeographyInputs = { inputs: GeographyInputs; reused: string[] }

/**
 * The input files: found in the TAXATLAS_GEO directory, or downloaded (kept under build/raw). A
 * download that fails (a 403 as Census has answered scripted clients, E10; any 4xx/5xx; the
 * network) or arrives unreadable takes the copy held from an earlier run: the one the data in
 * service was built on (`inService`: label → sha256, the snapshot's `geography.inputs`), else the
 * last one downloaded that reads. Only an input never held fails, and with it the run.
 */
export async function resolveGeographyInputs(settings: PipelineSettings, reporter?: Reporter, inService: Readonly<Record<string, string>> = {}): Promise<ResolvedGeographyInputs> {
  if (settings.geo.kind === 'dir') return { inputs: findInputFiles(settings.geo.root), reused: [] }
  const started = performance.now()
  const resolved = await fetchGeographyInputs(settings, settings.geo, inService)
  const from = settings.geo.kind === 'url' ? settings.geo.base : 'the publishers'
  reporter?.info(`geography inputs ready in ${((performance.now() - started) / 1000).toFixed(1)}s from ${from}${resolved.inputs.hud ? ' (ZIP→county from the HUD API)' : ''}`)
  for (const line of resolved.reused) reporter?.info(`geography input not downloaded or unreadable, earlier copy used: ${line}`)
  return resolved
}

export async function fetchGeographyInputs(settings: PipelineSettings, location: SourceLocation, inService: Readonly<Record<string, string>> = {}): Promise<ResolvedGeographyInputs> {
  const { census } = settings.geoVintage
  const censusFolder = `census-places-${census}`
  const censusUrl = (name: string) => `${CENSUS_CARTOGRAPHIC_URL}GENZ${census}/shp/${name}`
  const reused: string[] = []
  const fetch = (request: SourceRequest): Promise<GeographyInput> =>
    orKeptCopy(request, settings, inService, reused, async () => {
      const fetched = await fetchCensusFile(request, settings, location)
      await assertReadable(request.fileName, fetched.bytes).catch((error: Error) => {
        throw new UnreadableDownload(error.message)
      })
      return asInput(fetched, settings, request)
    })
  const relationship = (fileName: string) => fetch({ feed: CENSUS_RELATIONSHIP_FOLDER, fileName, officialUrl: `${CENSUS_RELATIONSHIP_URL}${fileName}` })

  const statesName = `cb_${census}_us_state_500k.zip`
  const states = await fetch({ feed: censusFolder, fileName: statesName, officialUrl: censusUrl(statesName) })
  const stateCodes = await readStateCodes(await readFile(states.file))
  const limit = pLimit(DOWNLOAD_CONCURRENCY)
  const places = Promise.all(
    [...stateCodes.keys()].sort().map((stateFips) =>
      limit(async () => {
        const name = `cb_${census}_${stateFips}_place_500k.zip`
        return { ...(await fetch({ feed: censusFolder, fileName: name, officialUrl: censusUrl(name) })), stateFips }
      }),
    ),
  )
  const hudStates = [...stateCodes].filter(([fips]) => HUD_STATE(fips)).map(([, code]) => code).sort()
  const hudToken = settings.hudToken
  const [zctaCounty, zctaPlace, placeByCounty, hud] = await Promise.all([
    // the HUD crosswalk, when asked for, stands in for the ZCTA→county file
    hudToken ? undefined : limit(() => relationship(ZCTA_COUNTY_FILE)),
    limit(() => relationship(ZCTA_PLACE_FILE)),
    limit(() => fetch({ feed: CENSUS_CODES_FOLDER, fileName: PLACE_BY_COUNTY_FILE, officialUrl: `${CENSUS_CODES_URL}${PLACE_BY_COUNTY_FILE}` })),
    hudToken ? orKeptCopy(HUD_API_FILE, settings, inService, reused, () => fetchHudApi(settings, hudToken, hudStates)) : undefined,
  ])
  const inputs = { states, places: await places, zctaPlace, placeByCounty, ...(zctaCounty ? { zctaCounty } : {}), ...(hud ? { hud } : {}) }
  return { inputs, reused }
}

/** Census answered scripted clients 403 for a while, and a browser's User-Agent got through (E10). */
const CENSUS_BROWSER_USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36'

/** A Census file; a 403 is asked once more as a browser. */
async function fetchCensusFile(request: SourceRequest, settings: PipelineSettings, location: SourceLocation): Promise<FetchedSource> {
  try {
    return await fetchSource(request, settings, location)
  } catch (error) {
    if (!(error instanceof FetchError && error.status === 403)) throw error
    return fetchSource({ ...request, userAgent: CENSUS_BROWSER_USER_AGENT }, settings, location).catch((retry: Error) => {
      throw new FetchError(`${error.message}; asked again as a browser: ${withoutName(retry.message, request.fileName)}`, { status: (retry as FetchError).status })
    })
  }
}

const withoutName = (message: string, fileName: string) => (message.startsWith(`${fileName}: `) ? message.slice(fileName.length + 2) : message)

/** A download that arrived and fails its reader's structure check. */
class UnreadableDownload extends Error {}

/** Throws what the input's reader would on its structure; a file no reader checks passes. */
async function assertReadable(fileName: string, bytes: Uint8Array): Promise<void> {
  if (isCensusTable(fileName)) assertCensusTableShape(bytes, fileName)
  else if (/^cb_\d{4}_us_state_500k\.zip$/.test(fileName)) await assertShapefileShape(bytes, 'state')
  else if (/^cb_\d{4}_\d{2}_place_500k\.zip$/.test(fileName)) await assertShapefileShape(bytes, 'place')
}

/** A copy of the input held under build/raw that still reads: the one with hash `sha256`, else the last one downloaded. */
async function readableKeptCopy(request: Pick<SourceRequest, 'feed' | 'fileName'>, settings: PipelineSettings, sha256?: string) {
  const kept = await keptCopy(request, settings, sha256)
  if (!kept) return null
  return assertReadable(request.fileName, await readFile(kept.file)).then(
    () => kept,
    () => null,
  )
}

/**
 * `download()`, or when it fails or arrives unreadable, the copy of the input held under build/raw
 * that reads: the one the data in service was built on, else the last one downloaded (`reused` gets
 * a line saying so). An input with no such copy held fails, naming both.
 */
async function orKeptCopy(
  request: Pick<SourceRequest, 'feed' | 'fileName'>,
  settings: PipelineSettings,
  inService: Readonly<Record<string, string>>,
  reused: string[],
  download: () => Promise<GeographyInput>,
): Promise<GeographyInput> {
  const label = `${request.feed}/${request.fileName}`
  try {
    return await download()
  } catch (error) {
    const unreadable = error instanceof UnreadableDownload
    const why = withoutName((error as Error).message, request.fileName)
    const builtOn = inService[label] ? await readableKeptCopy(request, settings, inService[label]) : null
    const kept = builtOn ?? (await readableKeptCopy(request, settings))
    if (!kept) {
      const failure = unreadable ? `was downloaded but cannot be read (${why})` : `could not be downloaded (${why})`
      throw new Error(`geography input ${label} ${failure} and no earlier copy of it is held (a first run, or ${path.join(settings.buildDir, 'raw')} emptied): nothing can be compiled until it ${unreadable ? 'downloads in a form its reader knows' : 'downloads'}`)
    }
    reused.push(`${label}: ${unreadable ? `downloaded but unreadable: ${why}` : why}; ${builtOn ? 'the copy the data in service was built on' : 'the copy last downloaded'} is used`)
    return { file: kept.file, label }
  }
}

export const GEOGRAPHY_REUSED_NOTE = 'geography inputs'

/** The note a refreshed state carries when some geography input was not downloaded, or arrived unreadable. */
export function geographyReusedNote(reused: readonly string[]): string {
  const labels = reused.map((line) => line.slice(0, line.indexOf(': ')))
  const more = labels.length > 3 ? ` and ${labels.length - 3} more` : ''
  return `${GEOGRAPHY_REUSED_NOTE}: ${reused.length} could not be downloaded or read (${labels.slice(0, 3).join(', ')}${more}); earlier copies used, the refresh log says why`
}

/** Where the HUD API crosswalk is kept: build/raw/hud-api/<sha256 prefix>/ZIP_COUNTY_api.csv. */
const HUD_API_FILE = { feed: 'hud-api', fileName: 'ZIP_COUNTY_api.csv' }

/** The HUD API crosswalk of `states`, kept under build/raw/hud-api/ as a crosswalk CSV. */
async function fetchHudApi(settings: PipelineSettings, token: string, states: string[]): Promise<GeographyInput> {
  const csv = Buffer.from(await fetchHudCrosswalk(states, readUspsZips(), { token, timeoutMs: settings.fetchTimeoutMs, retries: settings.fetchRetries }))
  const file = path.join(settings.buildDir, 'raw', HUD_API_FILE.feed, sha256Hex(csv).slice(0, 12), HUD_API_FILE.fileName)
  await writeAtomically(file, csv)
  return { file, label: `${HUD_API_FILE.feed}/${HUD_API_FILE.fileName}` }
}

/** label → sha256 of every input, as the built geography records them in `inputs`. */
export function hashGeographyInputs(inputs: GeographyInputs): Record<string, string> {
  const hashes: Record<string, string> = {}
  for (const { file, label } of geographyInputFiles(inputs)) hashes[label] = createHash('sha256').update(readFileSync(file)).digest('hex')
  return hashes
}

/** The path of the kept raw file, recorded under `<folder>/<file name>`. */
function asInput(fetched: FetchedSource, settings: PipelineSettings, request: SourceRequest): GeographyInput {
  return { file: path.join(settings.buildDir, 'raw', request.feed, fetched.sha256.slice(0, 12), request.fileName), label: `${request.feed}/${request.fileName}` }
}
