// Loads one state from one of the feeds its descriptor lists: fetch or read the file, parse, compile.
// A feed with no file for the state throws NoFileForState (the next feed serves); any other error
// is a failure of that feed.
import path from 'node:path'
import { SST_BOUNDARY_URL, type Feed, type StateDescriptor } from '../sources/descriptor.ts'
import { districtAreasOf } from '../sources/district-areas.ts'
import { extractMember } from './archive.ts'
import { compileAvalara } from './feeds/avalara-zip5.ts'
import { readNewestDrop } from './manual-drops.ts'
import { compileCdtfa, parseCdtfaWorkbook } from './feeds/cdtfa-workbook.ts'
import { NoFileForState } from './feeds/no-file-for-state.ts'
import { compileOrdmache } from './feeds/ordmache.ts'
import { parseOrdmacheFile } from './feeds/ordmache-file.ts'
import { compileSstStateStreaming } from './feeds/sst.ts'
import { sstBoundaryFileOf, sstRateFileOf } from './feeds/sst-rate-file-choice.ts'
import { compileStatutory } from './feeds/statutory.ts'
import { placeUnlistedZips } from './feeds/unlisted-zips.ts'
import { fetchSource, type FetchedSource } from './fetch-source.ts'
import type { Geography } from '../snapshot-contract/geography-model.ts'
import type { FeedResult, RawFile } from '../snapshot-contract/model.ts'
import type { PipelineSettings } from './settings.ts'
import { decodeText } from './text-decoding.ts'

export type LoadContext = { settings: PipelineSettings; geography: Geography }

export async function loadFeed(descriptor: StateDescriptor, feed: Feed, context: LoadContext): Promise<FeedResult> {
  switch (feed.kind) {
    case 'sst': {
      const rateFile = sstRateFileOf(feed, descriptor.code)
      const fetched = await fetchSource({ feed: 'sst', fileName: rateFile.name, officialUrl: new URL(rateFile.name, feed.ratesUrl).href }, context.settings)
      const { text, member } = fileText(fetched)
      const boundaryName = sstBoundaryFileOf(feed, descriptor.code)?.name
      const boundary = boundaryName
        ? await fetchSource({ feed: 'sst', fileName: boundaryName, officialUrl: new URL(boundaryName, feed.boundaryUrl ?? SST_BOUNDARY_URL).href }, context.settings)
        : null
      const boundaryText = boundary ? fileText(boundary) : null
      const result = await compileSstStateStreaming({
        state: descriptor.code,
        stateName: descriptor.name,
        rateFile: { name: member ?? fetched.name, text },
        ...(boundaryText ? { boundaryFile: { name: boundaryText.member ?? boundary!.name, lines: boundaryText.text.split('\n') } } : {}),
        districtAreas: districtAreasOf(descriptor.code),
        geography: context.geography,
      })
      const files = [{ ...rawFile(fetched), ...(member ? { member } : {}) }]
      if (boundary) files.push({ ...rawFile(boundary), ...(boundaryText?.member ? { member: boundaryText.member } : {}) })
      return withUnlistedZips(withFiles(result, files), descriptor.code, context)
    }
    case 'cdtfa': {
      const fileName = decodeURIComponent(path.posix.basename(new URL(feed.url).pathname))
      const fetched = await fetchSource({ feed: 'cdtfa', fileName, officialUrl: feed.url }, context.settings)
      const workbook = await parseCdtfaWorkbook(fetched.bytes, fetched.name)
      const result = compileCdtfa({
        workbook,
        fileName: fetched.name,
        statewideRate: descriptor.stateRate,
        geography: context.geography,
      })
      return withUnlistedZips(withFiles(result, [rawFile(fetched)]), descriptor.code, context)
    }
    case 'idor-ordmache': {
      const fileName = decodeURIComponent(path.posix.basename(new URL(feed.url).pathname))
      const fetched = await fetchSource({ feed: 'idor', fileName, officialUrl: feed.url }, context.settings)
      const file = parseOrdmacheFile(decodeText(fetched.bytes, fetched.name), fetched.name)
      const result = compileOrdmache({ file, stateRate: descriptor.stateRate, geography: context.geography })
      return withUnlistedZips(withFiles(result, [rawFile(fetched)]), descriptor.code, context)
    }
    case 'avalara-zip5': {
      const drop = await readNewestDrop(descriptor.code, context.settings.dropsDir)
      if (!drop) throw new NoFileForState(`no manual drop for ${descriptor.code} in ${context.settings.dropsDir} (${feed.dropPattern})`)
      const result = compileAvalara({ ...drop.parsed, state: descriptor.code, geography: context.geography })
      return withFiles({ ...result, notes: [...drop.parsed.notes, ...result.notes] }, [drop.raw])
    }
    case 'statutory':
      return compileStatutory({
        state: descriptor.code,
        stateName: descriptor.name,
        rate: descriptor.stateRate,
        label: feed.citation,
        effectiveFrom: null,
        geography: context.geography,
      })
  }
}

/**
 * An official state's result with the ZIPs the geography lacks placed by an aggregator drop's
 * region names (feeds/unlisted-zips.ts), when a drop of the state is at hand; a drop that cannot
 * be read leaves the result as it is, with a note.
 */
async function withUnlistedZips(result: FeedResult, state: string, context: LoadContext): Promise<FeedResult> {
  let drop
  try {
    drop = await readNewestDrop(state, context.settings.dropsDir)
  } catch (error) {
    return { ...result, notes: [...result.notes, `ZIPs the ZIP geography lacks left unplaced: the aggregator drop could not be read (${(error as Error).message})`] }
  }
  if (!drop) return result
  const placed = placeUnlistedZips(result, { state, geography: context.geography, rows: drop.parsed.rows, edition: drop.parsed.edition.edition })
  return placed === result ? result : { ...placed, files: [...placed.files, drop.raw] }
}

function fileText(fetched: FetchedSource): { text: string; member?: string } {
  if (/\.zip$/i.test(fetched.name)) {
    const { member, bytes } = extractMember(fetched.bytes, fetched.name)
    return { text: decodeText(bytes, `${fetched.name}:${member}`), member }
  }
  return { text: decodeText(fetched.bytes, fetched.name) }
}

const rawFile = ({ url, name, sha256, size }: FetchedSource): RawFile => ({ url, name, sha256, size })

const withFiles = (result: FeedResult, files: RawFile[]): FeedResult => ({ ...result, files })
