// The pieces adapters share to fetch a chosen file and to turn its bytes into a recorded result.
import type { StateDescriptor } from '../../sources/descriptor.ts'
import { stateFacts, stateRateOn, type StateFacts } from '../../sources/state-facts.ts'
import type { FeedResult, RawFile } from '../../snapshot-contract/model.ts'
import { extractMember, isZipContainer } from '../fetch/archive.ts'
import { orNoFileOnMirror, type EditionChoice } from '../fetch/edition-choice.ts'
import { fetchSource, type FetchedSource } from '../fetch/fetch-source.ts'
import { parseDrop } from './manual-drops.ts'
import type { PipelineSettings } from '../settings.ts'
import { decodeText } from '../fetch/text-decoding.ts'
import { aggregatorOverLowerBounds } from './lower-bound-defaults.ts'
import { placeUnlistedZips } from './unlisted-zips.ts'
import type { FeedKind } from '../../snapshot-contract/feed-traits.ts'
import type { ChoiceContext, EditionRules, FeedAdapter, FeedOf, LoadContext, StateSources } from './feed-adapter.ts'

/** A chosen file fetched as it is; a mirror without it holds no file for the state. */
export async function fetchChoice(choice: EditionChoice, settings: PipelineSettings): Promise<{ fetched: FetchedSource; choice: EditionChoice }> {
  return { fetched: await orNoFileOnMirror(choice.request.feed, settings, () => fetchSource(choice.request, settings)), choice }
}

/**
 * A feed of one file: compiled by `compile` (given the state rate on a date and the chosen
 * edition), the file recorded, unlisted ZIPs placed.
 */
async function oneFileResult(
  descriptor: StateDescriptor,
  sources: StateSources,
  context: LoadContext,
  compile: (fetched: FetchedSource, rateOn: (date: string) => number, edition: string) => FeedResult | Promise<FeedResult>,
): Promise<FeedResult> {
  const fetched = sources.fetched[0]!
  const result = await compile(fetched, (date) => stateRateOn(factsOf(descriptor), date)!, sources.choices[0]!.edition)
  return withUnlistedZips(withFiles(result, [rawFile(fetched)]), descriptor.code, sources, context)
}

/** A file whose rates take effect after today is held until then: the data in service keeps serving. */
export function assertInEffect(fileName: string, effectiveFrom: string, now: Date): void {
  const today = now.toISOString().slice(0, 10)
  if (effectiveFrom > today) throw new Error(`${fileName}: its rates take effect on ${effectiveFrom}, after today (${today}); held until then`)
}

export function factsOf(descriptor: StateDescriptor): StateFacts {
  const facts = stateFacts(descriptor.code)
  if (!facts) throw new Error(`${descriptor.code} has no row in the rules table (sources/state-facts.ts)`)
  return facts
}

/**
 * An official state's result with the ZIPs the geography lacks placed by an aggregator drop's
 * region names (feeds/unlisted-zips.ts), and the ZIPs whose official answer is only a lower bound
 * answered by the drop's figure (feeds/lower-bound-defaults.ts), when a drop of the state is at
 * hand; a drop that cannot be read leaves the result as it is, with a note.
 */
export function withUnlistedZips(result: FeedResult, state: string, sources: StateSources, context: LoadContext): FeedResult {
  const unreadable = (reason: string): FeedResult => ({
    ...result,
    notes: [...result.notes, `ZIPs the ZIP geography lacks left unplaced: the aggregator drop could not be read (${reason})`],
  })
  if (sources.dropError) return unreadable(sources.dropError)
  if (!sources.drop) return result
  let parsed
  try {
    parsed = parseDrop(sources.drop)
  } catch (error) {
    return unreadable((error as Error).message)
  }
  const placed = placeUnlistedZips(result, { state, geography: context.geography, rows: parsed.rows, edition: parsed.edition.edition })
  const { edition, editionDate } = parsed.edition
  const bounded = aggregatorOverLowerBounds(placed, { rows: parsed.rows, fileName: sources.drop.raw.name, edition, editionDate })
  return bounded === result ? result : { ...bounded, files: [...bounded.files, sources.drop.raw] }
}

/** A fetched file's bytes, or those of the one member of a ZIP archive; `label` names it in messages. */
export function memberOf(fetched: FetchedSource): { name: string; bytes: Uint8Array; label: string; member?: string } {
  if (/\.zip$/i.test(fetched.name) || isZipContainer(fetched.bytes)) {
    const { member, bytes } = extractMember(fetched.bytes, fetched.name)
    return { name: member, bytes, label: `${fetched.name}:${member}`, member }
  }
  return { name: fetched.name, bytes: fetched.bytes, label: fetched.name }
}

export function fileText(fetched: FetchedSource): { name: string; text: string; member?: string } {
  const { bytes, label, ...file } = memberOf(fetched)
  return { ...file, text: decodeText(bytes, label) }
}

export const textOf = (fetched: FetchedSource): string => decodeText(fetched.bytes, fetched.name)

export const rawFile = ({ url, name, sha256, size }: FetchedSource): RawFile => ({ url, name, sha256, size })

export const withFiles = (result: FeedResult, files: RawFile[]): FeedResult => ({ ...result, files })

/**
 * The adapter of an official feed of one file: `choose` finds its edition, `compile` turns the
 * fetched file into a result (given the load context, the state rate on a date and the edition);
 * the file is recorded and the ZIPs the geography lacks are placed from the state's drop.
 */
export function oneFileAdapter<K extends FeedKind>(parts: {
  kind: K
  choose: (feed: FeedOf<K>, context: ChoiceContext) => Promise<EditionChoice>
  fetch?: FeedAdapter<K>['fetch']
  compile: (context: LoadContext, fetched: FetchedSource, rateOn: (date: string) => number, edition: string) => FeedResult | Promise<FeedResult>
  edition: EditionRules<K>
}): FeedAdapter<K> {
  return {
    kind: parts.kind,
    choose: async (_descriptor, feed, context) => [await parts.choose(feed, context)],
    fetch: parts.fetch ?? fetchChoice,
    drop: 'supplement',
    compile: (descriptor, _feed, sources, context) => oneFileResult(descriptor, sources, context, (fetched, rateOn, edition) => parts.compile(context, fetched, rateOn, edition)),
    edition: parts.edition,
  }
}
