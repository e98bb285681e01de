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
import { fetchSource, type FetchedSource, type SourceRequest } from '../fetch/fetch-source.ts'
import type { PipelineSettings, SourceLocation } from '../settings.ts'
import { buildGeographyFrom, findInputFiles, geographyInputFiles, type GeographyInput, type GeographyInputs } from './build-geography.ts'
import { PLACE_BY_COUNTY_FILE, ZCTA_COUNTY_FILE, ZCTA_PLACE_FILE } from './census-relationship.ts'
import { fetchHudCrosswalk } from './hud-api.ts'
import { readStateCodes } from './place-shapes.ts'
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
  return buildGeographyFrom(await resolveGeographyInputs(settings, reporter))
}

/** The input files: found in the TAXATLAS_GEO directory, or downloaded (kept under build/raw). */
export async function resolveGeographyInputs(settings: PipelineSettings, reporter?: Reporter): Promise<GeographyInputs> {
  if (settings.geo.kind === 'dir') return findInputFiles(settings.geo.root)
  const started = performance.now()
  const inputs = await fetchGeographyInputs(settings, settings.geo)
  reporter?.info(`geography inputs ready in ${((performance.now() - started) / 1000).toFixed(1)}s from ${settings.geo.kind === 'url' ? settings.geo.base : 'the publishers'}${inputs.hud ? ' (ZIP→county from the HUD API)' : ''}`)
  return inputs
}

export async function fetchGeographyInputs(settings: PipelineSettings, location: SourceLocation): Promise<GeographyInputs> {
  const { census } = settings.geoVintage
  const censusFolder = `census-places-${census}`
  const censusUrl = (name: string) => `${CENSUS_CARTOGRAPHIC_URL}GENZ${census}/shp/${name}`
  const fetch = async (request: SourceRequest): Promise<GeographyInput> => asInput(await fetchSource(request, settings, location), settings, request)
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
  const [zctaCounty, zctaPlace, placeByCounty, hud] = await Promise.all([
    // the HUD crosswalk, when asked for, stands in for the ZCTA→county file
    settings.hudToken ? undefined : limit(() => relationship(ZCTA_COUNTY_FILE)),
    limit(() => relationship(ZCTA_PLACE_FILE)),
    limit(() => fetch({ feed: CENSUS_CODES_FOLDER, fileName: PLACE_BY_COUNTY_FILE, officialUrl: `${CENSUS_CODES_URL}${PLACE_BY_COUNTY_FILE}` })),
    settings.hudToken ? fetchHudApi(settings, settings.hudToken, hudStates) : undefined,
  ])
  return { states, places: await places, zctaPlace, placeByCounty, ...(zctaCounty ? { zctaCounty } : {}), ...(hud ? { hud } : {}) }
}

/** The HUD API crosswalk of `states`, kept under build/raw/hud-api/ as a crosswalk CSV. */
async function fetchHudApi(settings: PipelineSettings, token: string, states: string[]): Promise<GeographyInput> {
  const csv = Buffer.from(await fetchHudCrosswalk(states, readUspsZips(), { token, timeoutMs: settings.fetchTimeoutMs, retries: settings.fetchRetries }))
  const fileName = 'ZIP_COUNTY_api.csv'
  const file = path.join(settings.buildDir, 'raw', 'hud-api', sha256Hex(csv).slice(0, 12), fileName)
  await writeAtomically(file, csv)
  return { file, label: `hud-api/${fileName}` }
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
