// A state's feeds are tried in its order of preference; the first that loads and validates serves.
// What each one did is kept for the manifest, and a fallback says why it serves.
import type { Feed, StateDescriptor } from '../../sources/descriptor.ts'
import type { FeedKind } from '../../snapshot-contract/feed-traits.ts'
import type { AnchorResult, FeedAttempt, FreshnessStatus, StateRecord } from '../../snapshot-contract/manifest.ts'

/** One feed's try: served with a value, or why not (anchors: the diverged results of an anchor regression). */
export type FeedTry<T> =
  | { outcome: 'served'; value: T }
  | { outcome: 'no_file' | 'failed'; message: string; edition?: string }
  | { outcome: 'anchor_regression'; message: string; anchors: AnchorResult[]; edition?: string }

export type Preference<T> = {
  served: { feed: Feed; value: T } | null
  attempts: FeedAttempt[]
  /** the diverged anchors of the first feed that regressed, if any */
  regressed: AnchorResult[] | null
}

export async function firstServing<T>(feeds: readonly Feed[], attempt: (feed: Feed) => Promise<FeedTry<T>>): Promise<Preference<T>> {
  const attempts: FeedAttempt[] = []
  let regressed: AnchorResult[] | null = null
  for (const feed of feeds) {
    const tried = await attempt(feed)
    if (tried.outcome === 'served') {
      attempts.push({ feed: feed.kind, outcome: 'served', message: `${feed.kind} serves` })
      return { served: { feed, value: tried.value }, attempts, regressed }
    }
    if (tried.outcome === 'anchor_regression') regressed ??= tried.anchors
    attempts.push({ feed: feed.kind, outcome: tried.outcome, message: tried.message, ...(tried.edition ? { edition: tried.edition } : {}) })
  }
  return { served: null, attempts, regressed }
}

/** True when a feed before the one serving had a file and could not use it (not merely had none). */
export const preferredFeedBroke = (attempts: readonly FeedAttempt[]): boolean =>
  attempts.some((a) => a.outcome === 'failed' || a.outcome === 'anchor_regression')

/** Why the feed in service is not the preferred one, from the attempts before it; null when it is. */
export function fallbackReason(attempts: readonly FeedAttempt[]): string | null {
  const before = attempts.filter((a) => a.outcome !== 'served')
  if (before.length === 0) return null
  return before.map((a) => `${a.feed} ${a.outcome === 'no_file' ? 'has no file' : a.outcome === 'failed' ? 'failed' : 'diverged from an anchor'}: ${a.message}`).join('; ')
}

const rank = (descriptor: StateDescriptor, kind: string): number => {
  const at = descriptor.feeds.findIndex((feed) => feed.kind === kind)
  return at < 0 ? descriptor.feeds.length : at
}

/**
 * A fallback never replaces data of a more preferred feed: when that feed broke, or lists no file
 * for a state it served before, its previous data stays in service (a source that fails keeps its
 * last good data; an official file carries its rates' dates, so last quarter's file still answers).
 * The fallback serves where there is no such data: a first run, or data of the fallback itself.
 */
export function keepsPreviousOver(descriptor: StateDescriptor, served: FeedKind, prior: StateRecord | null, priorHasData: boolean): boolean {
  if (!prior || !priorHasData) return false
  return rank(descriptor, prior.feed) < rank(descriptor, served)
}

const CLAIMS_CURRENT: readonly FreshnessStatus[] = ['ok', 'changed', 'static', 'manual']

/**
 * The status a fallback's data earns: when a preferred feed broke, `stale` instead of any status
 * claiming the data is as current as the source allows (ok, changed, static, manual).
 */
export function fallbackStatus(status: FreshnessStatus, attempts: readonly FeedAttempt[]): FreshnessStatus {
  return preferredFeedBroke(attempts) && CLAIMS_CURRENT.includes(status) ? 'stale' : status
}
