// The Streamlined Sales Tax member states: the state's newest rate file and newest boundary file,
// each found on its own index page of the SST Governing Board (Rates/, Boundary/; their dates are
// not paired). A state with no boundary file listed is served by its rate file alone.
import { districtAreasOf } from '../../../sources/district-areas.ts'
import { NoFileForState } from '../../fetch/no-file-for-state.ts'
import { parseSstFileName, pickLatest, sstEditionKey, type SstFileKind } from './file-names.ts'
import { compileSstStateStreaming } from './compile.ts'
import { pinnedChoice, pinsOf, type ChoiceContext, type EditionChoice } from '../../fetch/edition-choice.ts'
import { fetchSstChoice } from './other-extension.ts'
import { decodeLines } from '../../fetch/text-decoding.ts'
import type { FeedAdapter } from '../feed-adapter.ts'
import { fileText, memberOf, rawFile, withFiles, withUnlistedZips } from '../feed-files.ts'

/** The state's newest SST rate or boundary file on the index page, or its pinned one. */
export async function chooseSstFile(state: string, kind: SstFileKind, indexUrl: string, context: ChoiceContext): Promise<EditionChoice> {
  const pinned = pinsOf(state, context.settings).find((name) => parseSstFileName(name)?.kind === kind)
  if (pinned) return pinnedChoice('sst', pinned, indexUrl, parseSstFileName(pinned)!.edition)
  const listing = await context.listings.get('sst', indexUrl)
  const names = listing.files.map((file) => file.name)
  const newest = pickLatest(names, state, kind)
  if (!newest) {
    const sst = names.filter((name) => parseSstFileName(name) !== null)
    if (sst.length === 0) {
      throw new Error(`index page ${listing.where} lists no SST file names among its ${names.length} links: its layout changed`)
    }
    // The state posts no file there: not a failure of the feed, and the state's next feed serves.
    throw new NoFileForState(`index page ${listing.where} lists no ${kind} file for ${state} (${sst.length} SST files of other states)`)
  }
  const officialUrl = listing.files.find((file) => file.name === newest.name)!.officialUrl
  const how = `${newest.name}: the newest of ${names.filter((name) => parseSstFileName(name)?.state === state && parseSstFileName(name)?.kind === kind).length} ${state} ${kind} file(s) listed on ${listing.where}${listing.cache === 'not-modified' ? ' (page not modified)' : ''}`
  return { request: { feed: 'sst', fileName: newest.name, officialUrl }, edition: newest.edition, pinned: false, how }
}

/** The edition role of a state's SST rate or boundary file (`sst MN rate`): a new file is compared with the one of its role in service. */
export const sstFileRole = (state: string, kind: SstFileKind): string => `sst ${state} ${kind}`

export const sstAdapter: FeedAdapter<'sst'> = {
  kind: 'sst',
  async choose(descriptor, feed, context) {
    const rate = await chooseSstFile(descriptor.code, 'rate', feed.ratesUrl, context)
    try {
      return [rate, await chooseSstFile(descriptor.code, 'boundary', feed.boundaryUrl, context)]
    } catch (error) {
      // A state that posts no boundary file is served by its rate file, bound to ZIPs through the geography.
      if (error instanceof NoFileForState) return [rate]
      throw error
    }
  },
  fetch: fetchSstChoice,
  drop: 'supplement',
  async compile(descriptor, feed, sources, context) {
    const [rateFile, boundaryFile] = [fileText(sources.fetched[0]!), sources.fetched[1] && memberOf(sources.fetched[1])]
    const districtAreas = districtAreasOf(descriptor.code)
    const result = await compileSstStateStreaming({
      state: descriptor.code,
      stateName: descriptor.name,
      rateFile: { name: rateFile.name, text: rateFile.text },
      ...(boundaryFile ? { boundaryFile: { name: boundaryFile.name, lines: decodeLines(boundaryFile.bytes, boundaryFile.label) } } : {}),
      ...(districtAreas ? { districtAreas } : {}),
      ...(feed.reading ? { reading: feed.reading } : {}),
      geography: context.geography,
    })
    const files = sources.fetched.map((fetched, i) => {
      const member = [rateFile, boundaryFile][i]?.member
      return { ...rawFile(fetched), ...(member ? { member } : {}) }
    })
    const notes = boundaryFile ? result.notes : [...result.notes, `no boundary file listed for ${descriptor.code} on ${feed.boundaryUrl}: its ZIP+4 and address lookups answer as its ZIP does`]
    return withUnlistedZips(withFiles({ ...result, notes }, files), descriptor.code, sources, context)
  },
  edition: {
    pinnable: (name, _feed, state) => parseSstFileName(name)?.state === state,
    isOlder(candidate, inService) {
      const [a, b] = [sstEditionKey(candidate), sstEditionKey(inService)]
      return a !== null && b !== null && a < b
    },
    role(name) {
      const sst = parseSstFileName(name)
      return sst ? sstFileRole(sst.state, sst.kind) : null
    },
  },
}
