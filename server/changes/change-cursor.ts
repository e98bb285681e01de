// The changes feed's cursor: the position of the last change of a page in the feed's order
// (effective date, state, level, code; one change per authority and day, so the position is
// unique). The next page starts after it, so a page is the same whichever snapshot serves it, and a
// change added or gone in a new snapshot moves no other change to another page.
import { LEVELS } from '../../snapshot-contract/model.ts'
import { isCalendarDate } from '../lookup/lookup-date.ts'
import { compareChanges, type ChangePosition } from '../../snapshot-contract/rate-changes.ts'

export type ChangeCursor = ChangePosition

export const writeCursor = ({ effective, state, level, code }: ChangeCursor): string =>
  Buffer.from(JSON.stringify([effective, state, level, code])).toString('base64url')

/** The position a cursor names, or null when the text is not a cursor this service wrote. */
export function readCursor(text: string): ChangeCursor | null {
  try {
    const parts: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'))
    if (!Array.isArray(parts) || parts.length !== 4 || !parts.every((part) => typeof part === 'string')) return null
    const [effective, state, level, code] = parts as string[]
    if (!isCalendarDate(effective!) || !(LEVELS as readonly string[]).includes(level!)) return null
    return { effective: effective!, state: state!, level: level as ChangeCursor['level'], code: code! }
  } catch {
    return null
  }
}

/** True when `change` comes after the cursor's position in the feed's order. */
export const isAfter = (change: ChangePosition, cursor: ChangeCursor): boolean => compareChanges(change, cursor) > 0
