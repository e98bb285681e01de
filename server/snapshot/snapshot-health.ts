// The snapshot's state as /healthz reports it.
//   ok        serving the snapshot CURRENT names, verified
//   degraded  serving a verified snapshot other than the one CURRENT names, or with a fault on
//             disk; `problem` says which:
//     fallback          at start-up CURRENT was missing, empty or named a snapshot that failed
//                       verification: the newest valid earlier snapshot is served
//     current_refused   CURRENT names a snapshot that failed verification: the one loaded
//                       before it is still served
//     current_missing   CURRENT is missing or empty: the snapshot loaded before is still served
//     damaged_on_disk   the files of the served snapshot no longer match their checksums on disk
//                       (the bytes in memory, verified, are still served)
export type SnapshotProblem = 'fallback' | 'current_refused' | 'current_missing' | 'damaged_on_disk'

export type SnapshotHealth =
  | { status: 'ok' }
  | { status: 'degraded'; problem: SnapshotProblem; reason: string; since: string }

// The older editions the served snapshot holds for `as_of` lookups (history-files.ts): `degraded`
// when a file failed verification and its edition is left out (`damaged`). Lookups of the data in
// service do not depend on them, so this does not make /healthz 503.
export type HistoryHealth =
  | { status: 'ok' }
  | {
      status: 'degraded'
      problem: 'damaged'
      reason: string
      since: string
      left_out: { file: string; edition: string; states: string[]; reason: string; since: string }[]
    }
