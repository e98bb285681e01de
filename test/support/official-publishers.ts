// The publishers as the replica plays them: the real files of ../shared under their published names
// (New York's Publication 718, South Carolina's publications and Louisiana's lookup, of which none is
// held, built in their documented layouts), at the addresses the pipeline uses by default, behind
// pages shaped like the real ones.
import { mkdir } from 'node:fs/promises'
import path from 'node:path'
import { CENSUS_CARTOGRAPHIC_URL, CENSUS_CODES_URL, CENSUS_RELATIONSHIP_URL } from '../../pipeline/geography/load-geography.ts'
import { CDTFA_RATES_PAGE, IDOR_ORDMACHE_URL, LA_LOOKUP_PAGE, NY_LOCAL_RATES_PAGE, SC_INDEX_PAGE, SC_ST500_URL, SC_ST575_URL, SST_BOUNDARY_URL, SST_RATES_URL } from '../../sources/descriptor.ts'
import { writePlaceByCountyFile, writeZctaCountyFile, writeZctaPlaceFile } from './census-files.ts'
import { laParishes, serveLaLookup } from './la-lookup-fixture.ts'
import { loadMiniGeography } from './mini-geography.ts'
import { nyLocalRatesPage, pub718Pdf } from './ny-pub718-fixture.ts'
import { scIndexPage, st500Pdf, st575Pdf, st575Rows } from './sc-dor-fixture.ts'
import { cdtfaRatesPageHtml } from './publisher-pages.ts'
import { startPublisherReplica, type PublisherReplica } from './publisher-replica.ts'
import { sharedPath } from './shared.ts'
import { arRateFileE7, ksRateFileE7, zipped } from './sst-e7-fixture.ts'

export const PUBLISHER_HOSTS = ['www.streamlinedsalestax.org', 'www.cdtfa.ca.gov', 'tax.illinois.gov', 'www.tax.ny.gov', 'dor.sc.gov', 'remotesellersfiling.la.gov', 'www2.census.gov'] as const

/**
 * Names the SST listing carries for states whose files the replica does not hold, in the spellings
 * seen in the wild (publisher-evidence.md A.3: uppercase extension, mixed-case month, one-digit day):
 * a file listed and then answered 404, as when SST deletes it between listing and download.
 */
export const SST_LISTED_WITHOUT_FILE = ['INR2008Q4MAY7.csv', 'KYR2012Q4Aug13.csv', 'WYR2026Q4AUG20.CSV'] as const

/**
 * The Boundary listing's names, from the listing of 2026-09-16 (publisher-evidence.md A.3), of
 * states whose rate files the replica does not list: GA, MN and WI have no boundary file there.
 */
export const SST_BOUNDARY_LISTED = ['OKB2026Q4AUG28.zip', 'UTB2026Q4AUG11.csv', 'VTB2026Q4AUG20.zip'] as const

/**
 * Rate files the replica's SST listing carries beyond the held ones, in the shapes of
 * publisher-evidence E7 (test/support/sst-e7-fixture.ts): Kansas's with type-79 rows (zipped, as
 * the 2026-09-16 listing has it), Arkansas's with type-69 rows.
 */
export const SST_E7_FILES = { KS: 'KSR2026Q4AUG19.zip', AR: 'ARR2026Q4AUG28.csv' } as const

async function sstE7Files(): Promise<Record<string, Buffer | string>> {
  const geography = await loadMiniGeography(['KS', 'AR'])
  const counties = (state: string) => [...geography.counties.values()].filter((c) => c.state === state).map((c) => c.fips.slice(2))
  return { [SST_E7_FILES.KS]: zipped('KSR2026Q4AUG19.csv', ksRateFileE7(counties('KS'))), [SST_E7_FILES.AR]: arRateFileE7(counties('AR')) }
}

export const CDTFA_WORKBOOK = 'SalesTaxRates1-1-26.xlsx'
export const CDTFA_WORKBOOK_URL = new URL(`/taxes-and-fees/${CDTFA_WORKBOOK}`, CDTFA_RATES_PAGE).href

/** Where the DTF local rates page links Publication 718; its PDF is built in the documented layout (support/ny-pub718-fixture.ts): no copy of it is held in shared/. */
export const NY_PUB718_URL = new URL('/pdf/publications/sales/pub718.pdf', NY_LOCAL_RATES_PAGE).href

/**
 * A replica of every publisher the default refresh reads, serving the files in ../shared; the
 * Census relationship and place-by-county files are rebuilt in their published layout under
 * `workDir` (test/support/census-files.ts), where the test CA is written too.
 */
export async function startOfficialPublishers(workDir: string): Promise<PublisherReplica> {
  const replica = await startPublisherReplica(PUBLISHER_HOSTS, workDir)
  try {
    await replica.serveDirectory(SST_RATES_URL, sharedPath('mirror', 'sst'), 'iis', { listedWithoutFile: SST_LISTED_WITHOUT_FILE, files: await sstE7Files() })
    const boundary = path.join(workDir, 'sst-boundary')
    await mkdir(boundary)
    await replica.serveDirectory(SST_BOUNDARY_URL, boundary, 'iis', { listedWithoutFile: SST_BOUNDARY_LISTED })
    replica.answer(CDTFA_RATES_PAGE, { kind: 'page', html: cdtfaRatesPageHtml([new URL(CDTFA_WORKBOOK_URL).pathname]) })
    replica.answer(CDTFA_WORKBOOK_URL, { kind: 'file', file: sharedPath('mirror', 'cdtfa', CDTFA_WORKBOOK) })
    replica.answer(IDOR_ORDMACHE_URL, { kind: 'file', file: sharedPath('mirror', 'idor', path.posix.basename(IDOR_ORDMACHE_URL)) })
    replica.answer(NY_LOCAL_RATES_PAGE, { kind: 'page', html: nyLocalRatesPage(new URL(NY_PUB718_URL).pathname) })
    await replica.serveBytes(NY_PUB718_URL, await pub718Pdf())
    await serveScAndLa(replica)
    await serveGeography(replica, workDir)
    return replica
  } catch (error) {
    await replica.close()
    throw error
  }
}

/**
 * SCDOR's three publications and the Louisiana lookup, of which no copy is held: built in their
 * documented layouts over the counties and parishes of the Census geography.
 */
async function serveScAndLa(replica: PublisherReplica): Promise<void> {
  const geography = await loadMiniGeography(['SC', 'LA'])
  const countiesOf = (state: string) => [...geography.counties.values()].filter((c) => c.state === state)
  const sc = countiesOf('SC').map((c) => c.name).sort()
  replica.answer(SC_INDEX_PAGE, { kind: 'page', html: scIndexPage(sc) })
  await replica.serveBytes(SC_ST500_URL, await st500Pdf(sc))
  await replica.serveBytes(SC_ST575_URL, await st575Pdf(st575Rows(sc)))
  serveLaLookup(replica, LA_LOOKUP_PAGE, laParishes(countiesOf('LA')))
}

/** www2.census.gov: the 2015 cartographic boundary files as published, the 2020 files as rebuilt. */
async function serveGeography(replica: PublisherReplica, workDir: string): Promise<void> {
  const relationship = path.join(workDir, 'census-rel2020')
  const codes = path.join(workDir, 'census-codes2020')
  await Promise.all([writeZctaCountyFile(relationship), writeZctaPlaceFile(relationship), writePlaceByCountyFile(codes)])
  await replica.serveDirectory(`${CENSUS_CARTOGRAPHIC_URL}GENZ2015/shp/`, sharedPath('geo', 'census-places-2015'), 'apache')
  await replica.serveDirectory(CENSUS_RELATIONSHIP_URL, relationship, 'apache')
  await replica.serveDirectory(CENSUS_CODES_URL, codes, 'apache')
}
