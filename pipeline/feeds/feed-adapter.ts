// What the pipeline asks of one feed kind: how its editions are discovered and fetched, how its
// files are parsed and compiled, and the rules its editions follow (pins, order, file roles). One
// adapter per kind, gathered in adapter-table.ts keyed by FeedKind: a kind without one does not compile.
import type { Feed, StateDescriptor } from '../../sources/descriptor.ts'
import type { FeedKind } from '../../snapshot-contract/feed-traits.ts'
import type { Geography } from '../../snapshot-contract/geography-model.ts'
import type { FeedResult } from '../../snapshot-contract/model.ts'
import type { EditionChoice } from '../fetch/edition-choice.ts'
import type { FetchedSource } from '../fetch/fetch-source.ts'
import type { DropFile } from './manual-drops.ts'
import type { PipelineSettings } from '../settings.ts'
import type { Listings } from '../fetch/source-listing.ts'

export type LoadContext = { settings: PipelineSettings; geography: Geography; listings: Listings }
export type ChoiceContext = Pick<LoadContext, 'settings' | 'listings'>

export type StateSources = {
  /** the publisher's files, in the order the feed reads them (SST: rate file, then boundary file) */
  fetched: FetchedSource[]
  /** how each of `fetched` was chosen */
  choices: EditionChoice[]
  /** the state's newest Avalara drop: the avalara-zip5 feed's data, or an official state's region names */
  drop?: DropFile
  /** why no drop could be read, when one was there */
  dropError?: string
}

/** The descriptor entry of a feed of kind K. */
export type FeedOf<K extends FeedKind> = Extract<Feed, { kind: K }>

export type EditionRules<K extends FeedKind> = {
  /** whether a TAXATLAS_PIN file name names a file of this feed for the state (a feed that cannot be pinned says never) */
  pinnable: (name: string, feed: FeedOf<K>, state: string) => boolean
  /** `candidate` is an older edition than `inService`: a listing that went back in time must not replace newer data */
  isOlder: (candidate: string, inService: string) => boolean
  /** what a file of the feed is (`sst MN rate`), so a new file is compared in size with the one in service of the same role; null: none of its files */
  role: (name: string) => string | null
}

export type FeedAdapter<K extends FeedKind> = {
  kind: K
  /** discover: the edition of each file the feed reads for the state, the newest listed or the pinned one */
  choose: (descriptor: StateDescriptor, feed: FeedOf<K>, context: ChoiceContext) => Promise<EditionChoice[]>
  /** fetch one chosen file; the choice comes back changed when the file was found under another name */
  fetch: (choice: EditionChoice, settings: PipelineSettings) => Promise<{ fetched: FetchedSource; choice: EditionChoice }>
  /** what the state's newest aggregator drop is to the feed: its data (required), a supplement for ZIPs it lacks, or nothing */
  drop: 'data' | 'supplement' | 'none'
  /** parse the fetched files and compile them against the geography */
  compile: (descriptor: StateDescriptor, feed: FeedOf<K>, sources: StateSources, context: LoadContext) => Promise<FeedResult>
  edition: EditionRules<K>
}

export const never = (): false => false

/** A feed whose editions are ISO dates: an older date is an older edition. */
export const isOlderDate = (candidate: string, inService: string): boolean => /^\d{4}-\d{2}-\d{2}$/.test(inService) && candidate < inService

/** The rules of a feed whose editions take no pin and have no order to refuse by (one current file, a drop, a statute): no pins, no order, no roles. */
export const CURRENT_FILE_RULES = { pinnable: never, isOlder: never, role: () => null } as const
