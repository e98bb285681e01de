// The geography a run compiles against. TAXATLAS_GEO set to a directory reads the inputs there
// (the offline override); otherwise each input is downloaded from its publisher (or from a mirror
// base URL laid out like ../shared/geo) and kept under build/raw/<folder>/ like a rate file:
//
// | input | publisher URL | mirror folder |
// | HUD/USPS ZIP→county crosswalk | huduser.gov …/usps/ZIP_COUNTY_<MMYYYY>.xlsx | hud/ |
// | Census state polygons | www2.census.gov …/GENZ<YYYY>/shp/cb_<YYYY>_us_state_500k.zip | census-places-<YYYY>/ |
// | Census place polygons, per state | …/GENZ<YYYY>/shp/cb_<YYYY>_<SS>_place_500k.zip | census-places-<YYYY>/ |
// | MCDC Geocorr 2022 county×place | the Geocorr form's request; its answer page links the CSV | geocorr/ (an index page) |
//
// Vintages are settings (TAXATLAS_GEO_HUD_VINTAGE, TAXATLAS_GEO_CENSUS_VINTAGE).
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import pLimit from 'p-limit'
import type { Geography } from '../../snapshot-contract/geography-model.ts'
import { writeAtomically } from '../../snapshot-contract/file-bytes.ts'
import { fetchSource, FetchError, type FetchedSource, type SourceRequest } from '../fetch-source.ts'
import type { PipelineSettings, SourceLocation } from '../settings.ts'
import { Listings } from '../source-listing.ts'
import { buildGeographyFrom, findInputFiles, geographyInputFiles, type GeographyInput, type GeographyInputs } from './build-geography.ts'
import { decodeGeocorr, isGeocorrPlaceTable } from './mcdc-place-table.ts'
import { readStateCodes } from './place-shapes.ts'

export const HUD_CROSSWALK_URL = 'https://www.huduser.gov/portal/datasets/usps/'
export const CENSUS_CARTOGRAPHIC_URL = 'https://www2.census.gov/geo/tiger/'
export const GEOCORR_FORM_URL = 'https://mcdc.missouri.edu/cgi-bin/broker'

// Census serves many small files; a few at a time is polite and enough.
const DOWNLOAD_CONCURRENCY = 4
const GEOCORR_FILE = /^geocorr2022_\d+\.csv$/i
/** State FIPS codes Geocorr 2022 covers: the states, DC and Puerto Rico (no island areas). */
const GEOCORR_STATE = (fips: string) => fips <= '56' || fips === '72'

type Reporter = { info(message: string): void }

export async function loadGeography(settings: PipelineSettings, reporter?: Reporter): Promise<Geography> {
  return buildGeographyFrom(await resolveGeographyInputs(settings, reporter))
}

/** The input files: found in the TAXATLAS_GEO directory, or downloaded (kept under build/raw). */
export async function resolveGeographyInputs(settings: PipelineSettings, reporter?: Reporter): Promise<GeographyInputs> {
  if (settings.geo.kind === 'dir') return findInputFiles(settings.geo.root)
  const started = performance.now()
  const inputs = await fetchGeographyInputs(settings, settings.geo)
  reporter?.info(`geography inputs ready in ${((performance.now() - started) / 1000).toFixed(1)}s from ${settings.geo.kind === 'url' ? settings.geo.base : 'the publishers'}`)
  return inputs
}

export async function fetchGeographyInputs(settings: PipelineSettings, location: SourceLocation): Promise<GeographyInputs> {
  const { hud: hudVintage, census } = settings.geoVintage
  const censusFolder = `census-places-${census}`
  const censusUrl = (name: string) => `${CENSUS_CARTOGRAPHIC_URL}GENZ${census}/shp/${name}`
  const fetch = async (request: SourceRequest): Promise<GeographyInput> => asInput(await fetchSource(request, settings, location), settings, request)

  const hudName = `ZIP_COUNTY_${hudVintage}.xlsx`
  const statesName = `cb_${census}_us_state_500k.zip`
  const censusAndGeocorr = async () => {
    const states = await fetch({ feed: censusFolder, fileName: statesName, officialUrl: censusUrl(statesName) })
    const stateCodes = await readStateCodes(await readFile(states.file))
    const limit = pLimit(DOWNLOAD_CONCURRENCY)
    const [places, geocorr] = await Promise.all([
      Promise.all(
        [...stateCodes.keys()].sort().map((stateFips) =>
          limit(async () => {
            const name = `cb_${census}_${stateFips}_place_500k.zip`
            return { ...(await fetch({ feed: censusFolder, fileName: name, officialUrl: censusUrl(name) })), stateFips }
          }),
        ),
      ),
      fetchGeocorr(settings, location, [...stateCodes].filter(([fips]) => GEOCORR_STATE(fips))),
    ])
    return { states, places, geocorr }
  }
  const [hud, rest] = await Promise.all([fetch({ feed: 'hud', fileName: hudName, officialUrl: `${HUD_CROSSWALK_URL}${hudName}` }), censusAndGeocorr()])
  return { hud, ...rest }
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

/**
 * Geocorr files are generated on request and never change for a vintage, so the first one kept
 * is reused without asking MCDC again. From a mirror, the newest geocorr2022_*.csv its geocorr/
 * index page lists that is a county×place table.
 */
async function fetchGeocorr(settings: PipelineSettings, location: SourceLocation, states: [string, string][]): Promise<GeographyInput> {
  const keptRecord = path.join(settings.buildDir, 'raw', 'geocorr', 'geocorr2022-kept.json')
  const kept = await readFile(keptRecord, 'utf8').then((text) => JSON.parse(text) as GeographyInput & { from: string }).catch(() => null)
  const from = location.kind === 'url' ? location.base : 'mcdc'
  if (kept?.from === from && (await readFile(kept.file).then(() => true, () => false))) return { file: kept.file, label: kept.label }

  const formUrl = geocorrRequestUrl(states)
  const listing = await new Listings(settings, location).get('geocorr', formUrl)
  const candidates = listing.files.filter((file) => GEOCORR_FILE.test(file.name)).sort((a, b) => b.name.localeCompare(a.name))
  if (candidates.length === 0) {
    throw new FetchError(`${listing.where} links no geocorr2022_*.csv among its ${listing.files.length} links (set TAXATLAS_GEO to a directory holding a Geocorr 2022 county×place CSV)`)
  }
  for (const file of candidates) {
    const request = { feed: 'geocorr', fileName: file.name, officialUrl: file.officialUrl }
    const fetched = await fetchSource(request, settings, location.kind === 'url' ? location : { kind: 'official' })
    if (!isGeocorrPlaceTable(decodeGeocorr(fetched.bytes.subarray(0, 4096)))) continue
    const input = asInput(fetched, settings, request)
    await writeAtomically(keptRecord, JSON.stringify({ ...input, from }))
    return input
  }
  throw new FetchError(`none of ${candidates.map((c) => c.name).join(', ')} on ${listing.where} is a Geocorr county×place table`)
}

/**
 * The request the Geocorr 2022 form sends for a county → place table of every state, weighted by
 * 2020 population, as CSV. MCDC answers an HTML page linking the generated file.
 */
export function geocorrRequestUrl(states: [string, string][]): string {
  const query = new URLSearchParams([
    ['_PROGRAM', 'apps.geocorr2022.sas'],
    ['_SERVICE', 'MCDC_long'],
    ['_debug', '0'],
    ...states.map(([fips, code]): [string, string] => ['state', `${code[0]}${code[1]!.toLowerCase()}${fips}`]),
    ['g1_', 'county'],
    ['g2_', 'place'],
    ['wtvar', 'pop20'],
    ['nozerob', '1'],
    ['fileout', '1'],
    ['filefmt', 'csv'],
    ['lstfmt', 'html'],
    ['title', ''],
  ])
  return `${GEOCORR_FORM_URL}?${query}`
}
