// What the feed derives from a snapshot, kept per state in one of the snapshot's derived views: the
// snapshot is immutable, so a derived value never goes stale, and it goes when the snapshot does.
import { derivedView } from '../snapshot/derived-views.ts'
import type { Snapshot } from '../snapshot/open-snapshot.ts'

export function memoPerState<T>(name: string, derive: (snapshot: Snapshot, state: string) => T): (snapshot: Snapshot, state: string) => T {
  const kept = derivedView(name, (_snapshot: Snapshot) => new Map<string, T>())
  return (snapshot, state) => {
    const byState = kept.of(snapshot)
    if (!byState.has(state)) byState.set(state, derive(snapshot, state))
    return byState.get(state)!
  }
}
