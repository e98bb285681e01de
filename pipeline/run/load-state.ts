// Loads one state from one of the feeds its descriptor lists, in two steps: fetch its sources (the
// edition chosen from the publisher's listing, or the pinned one, and the newest manual drop),
// then compile them. The refresh compares what was fetched with what is in service in between.
// What each step does for a feed is its adapter's (feeds/adapter-table.ts).
// A feed with nothing for the state throws NoFileForState (the next feed serves); any other error
// is a failure of that feed.
import type { Feed, StateDescriptor } from '../../sources/descriptor.ts'
import type { FeedResult } from '../../snapshot-contract/model.ts'
import type { EditionChoice } from '../fetch/edition-choice.ts'
import { assertPinsUsable } from './edition-rules.ts'
import type { ChoiceContext, LoadContext, StateSources } from '../feeds/feed-adapter.ts'
import { adapterOf } from '../feeds/adapter-table.ts'
import { NoFileForState } from '../fetch/no-file-for-state.ts'
import { readNewestDrop } from '../feeds/manual-drops.ts'

export type { LoadContext, StateSources } from '../feeds/feed-adapter.ts'

export async function fetchStateSources(descriptor: StateDescriptor, feed: Feed, context: ChoiceContext): Promise<StateSources> {
  return fetchChosenSources(descriptor, feed, await chooseEditions(descriptor, feed, context), context)
}

/** The edition of each file the feed reads for the state: the newest listed, or the pinned one. */
export async function chooseEditions(descriptor: StateDescriptor, feed: Feed, context: ChoiceContext): Promise<EditionChoice[]> {
  assertPinsUsable(descriptor, context.settings)
  return adapterOf(feed).choose(descriptor, feed, context)
}

/** The chosen files fetched (`choices` is updated when a file is fetched under another name), and the state's newest drop. */
export async function fetchChosenSources(descriptor: StateDescriptor, feed: Feed, choices: EditionChoice[], context: ChoiceContext): Promise<StateSources> {
  const adapter = adapterOf(feed)
  const fetched = await Promise.all(
    choices.map(async (choice, i) => {
      const got = await adapter.fetch(choice, context.settings)
      choices[i] = got.choice
      return got.fetched
    }),
  )
  if (adapter.drop === 'none') return { fetched, choices }
  try {
    const drop = await readNewestDrop(descriptor.code, context.settings.dropsDir)
    if (!drop && adapter.drop === 'data') {
      throw new NoFileForState(`no manual drop for ${descriptor.code} in TAXATLAS_DROPS${'dropPattern' in feed ? ` (${feed.dropPattern})` : ''}`)
    }
    return { fetched, choices, ...(drop ? { drop } : {}) }
  } catch (error) {
    if (adapter.drop === 'data') throw error
    return { fetched, choices, dropError: (error as Error).message }
  }
}

export async function compileState(descriptor: StateDescriptor, feed: Feed, sources: StateSources, context: LoadContext): Promise<FeedResult> {
  return adapterOf(feed).compile(descriptor, feed, sources, context)
}

/** Fetch, then compile: one state's load from one feed, with no comparison against the data in service. */
export async function loadFeed(descriptor: StateDescriptor, feed: Feed, context: LoadContext): Promise<FeedResult> {
  return compileState(descriptor, feed, await fetchStateSources(descriptor, feed, context), context)
}
