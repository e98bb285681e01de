// What the feed derives from a snapshot, kept per snapshot object and state: the snapshot is
// immutable, so a derived value never goes stale, and it goes when the snapshot does.
import type { Snapshot } from '../snapshot/open-snapshot.ts'

export function memoPerState<T>(derive: (snapshot: Snapshot, state: string) => T): (snapshot: Snapshot, state: string) => T {
  const kept = new WeakMap<Snapshot, Map<string, T>>()
  return (snapshot, state) => {
    let byState = kept.get(snapshot)
    if (!byState) kept.set(snapshot, (byState = new Map()))
    if (!byState.has(state)) byState.set(state, derive(snapshot, state))
    return byState.get(state)!
  }
}
