// What a reader does with a row it cannot read: sets it aside with its reason and counts it, so one
// bad row never takes the state down; past a small share of the file, the file itself is refused.

/** A row set aside: its 1-based line (or record) number in the file, and why. */
export type RejectedLine = { line: number; reason: string }

/** Share of rejected rows above which a whole file is refused. */
export const MAX_REJECTED_SHARE = 0.01
