// The store's state as /healthz reports it and as the supervisor keeps it.
//   opening   the first attempt to open it is running (key requests wait for it)
//   ok        open, its file the one opened, its last write accepted
//   degraded  key routes or writes are refused; `problem` says why:
//     locked / missing / unreadable / unavailable   it could not be opened (retried, see open-retry.ts)
//     file_lost        its file was removed, replaced or damaged in place while open: writes are refused
//     write_refused    its disk refused the last write (full, a size limit, read-only)
//     invalidated      DuckDB gave up on it after a fatal error (a checkpoint its disk refused): writes
//                      and reads are refused until it is reopened in place (store-supervisor.ts),
//                      retried with backoff until the reopen's own checkpoint succeeds
import type { OpenProblem } from './open-store-file.ts'

export type StoreProblem = OpenProblem | 'file_lost' | 'write_refused' | 'invalidated'

export type StoreHealth =
  | { status: 'opening' }
  | { status: 'ok' }
  | { status: 'degraded'; problem: StoreProblem; reason: string; since: string }
