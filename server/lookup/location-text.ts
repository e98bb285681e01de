// The texts of place and coordinate mode: the path state, and a `location` such as "Springfield, IL",
// "Saint Paul MN" or "Springfield", read with the address module's state table.
import { matchState } from './address/index.ts'

export type WrittenState = { code: string; written: string; form: 'code' | 'name' }

export type LocationText = {
  /** the place name, whitespace collapsed ("Saint Paul") */
  name: string
  /** a state written after the name, if any */
  state: WrittenState | null
}

const collapse = (text: string) => text.replace(/\s+/g, ' ').trim()

/** The path state as a state, or null for a placeholder ("-", "N", "false") or anything else. */
export function readPathStateText(text: string): WrittenState | null {
  const written = collapse(text)
  const match = written === '' ? null : matchState(written.split(' '))
  return match ? { code: match.code, written, form: match.form } : null
}

// "Kansas City Kansas": the longest trailing state phrase that leaves a name before it.
const LONGEST_STATE_WORDS = 4

export function readLocation(text: string): LocationText {
  const written = collapse(text)
  const comma = written.lastIndexOf(',')
  if (comma >= 0) {
    const name = collapse(written.slice(0, comma))
    const tail = collapse(written.slice(comma + 1))
    const match = name && tail ? matchState(tail.split(' ')) : null
    if (match) return { name, state: { code: match.code, written: tail, form: match.form } }
    if (!tail) return { name, state: null }
  }
  const words = written.replace(/,/g, ' ').split(' ').filter(Boolean)
  for (let size = Math.min(LONGEST_STATE_WORDS, words.length - 1); size >= 1; size--) {
    const tail = words.slice(-size)
    const match = matchState(tail)
    if (match) return { name: words.slice(0, -size).join(' '), state: { code: match.code, written: tail.join(' '), form: match.form } }
  }
  return { name: words.join(' '), state: null }
}
