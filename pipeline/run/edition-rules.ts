// The rules editions follow, asked of each feed's adapter: which pins a state's feeds can use, when
// an edition is older than the one in service (and so refused), and which file a new one replaces.
import type { StateDescriptor } from '../../sources/descriptor.ts'
import { FeedKind } from '../../snapshot-contract/feed-traits.ts'
import { pinsOf } from '../fetch/edition-choice.ts'
import { adapterOf, FEED_ADAPTERS } from '../feeds/adapter-table.ts'
import type { PipelineSettings } from '../settings.ts'

/** Pins of a state that none of its feeds can use are an error, not silently ignored. */
export function assertPinsUsable(descriptor: StateDescriptor, settings: PipelineSettings): void {
  const usable = (name: string) => descriptor.feeds.some((feed) => adapterOf(feed).edition.pinnable(name, feed, descriptor.code))
  const unusable = pinsOf(descriptor.code, settings).filter((name) => !usable(name))
  if (unusable.length) throw new Error(`TAXATLAS_PIN names ${unusable.join(', ')} for ${descriptor.code}, which none of its feeds (${descriptor.feeds.map((f) => f.kind).join(', ')}) publishes`)
}

/**
 * True when `candidate` is an older edition than `inService` of the same feed: a listing that
 * went back in time (a restored old page, a mirror out of date) must not replace newer data.
 */
export const isOlderEdition = (feed: FeedKind, candidate: string, inService: string): boolean => FEED_ADAPTERS[feed].edition.isOlder(candidate, inService)

/** A file name of a feed's editions → what it is, so a new file is compared with the one in service of the same role. */
export function sourceRole(name: string): string {
  for (const kind of FeedKind.options) {
    const role = FEED_ADAPTERS[kind].edition.role(name)
    if (role !== null) return role
  }
  return name
}
