// An edition the publisher lists that the snapshot does not serve: the first feed try that named
// an edition and could not be used (its load failed, or its checks or anchors refused it), unless
// that edition is the one in service or an older one of the same feed.
import type { FeedAttempt, PendingEdition, StateRecord } from '../../snapshot-contract/manifest.ts'
import { isOlderEdition } from './edition-rules.ts'

export function pendingEdition(attempts: readonly FeedAttempt[], inService: Pick<StateRecord, 'feed' | 'edition'> | null): PendingEdition | null {
  for (const attempt of attempts) {
    if (!attempt.edition || (attempt.outcome !== 'failed' && attempt.outcome !== 'anchor_regression')) continue
    const held = inService?.feed === attempt.feed && inService.edition !== null
    if (held && (inService.edition === attempt.edition || isOlderEdition(attempt.feed, attempt.edition, inService.edition!))) continue
    return { edition: attempt.edition, feed: attempt.feed, outcome: attempt.outcome, reason: attempt.message }
  }
  return null
}
