// What a reader does with a row it cannot read: sets it aside with its reason and counts it, so one
// bad row never takes the state down; past a small share of the file, the file itself is refused.

import type { RowWindow } from './set-aside.ts'

/** A row set aside: its 1-based line (or record) number in the file, why, and the days its dates say it is in force, where they can be read. */
export type RejectedLine = { line: number; reason: string; window?: RowWindow }

/** Share of rejected rows above which a whole file is refused. */
export const MAX_REJECTED_SHARE = 0.01
