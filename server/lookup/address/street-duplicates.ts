// Street fragments typed twice back to back (rule street_fragment_deduplicated).
import { STREET_SUFFIXES } from '../../../snapshot-contract/street-vocabulary.ts'
import type { Edit, Token } from './tokens.ts'

export type DuplicateRemoval = { edits: Edit[]; fragments: string[] }

const MIN_FRAGMENT_WORDS = 2

/**
 * Removals for each immediate repeat of a run of words that contains a street suffix, longest runs first:
 * "123 Main St 123 Main St, Seattle", "123 Main St Main St", tripled copies. The suffix requirement keeps
 * doubled place names ("Walla Walla") out.
 */
export function findDuplicateStreetFragments(tokens: readonly Token[]): DuplicateRemoval {
  let alive = tokens.map((_, i) => i)
  const edits: Edit[] = []
  const fragments: string[] = []
  for (;;) {
    const repeat = findRepeat(tokens, alive)
    if (!repeat) break
    const { at, size } = repeat
    const removed = alive.slice(at + size, at + 2 * size)
    edits.push({ start: removed[0]!, end: removed[removed.length - 1]! + 1, words: [] })
    fragments.push(alive.slice(at, at + size).map((i) => tokens[i]!.text).join(' '))
    alive = [...alive.slice(0, at + size), ...alive.slice(at + 2 * size)]
  }
  return { edits: edits.sort((a, b) => a.start - b.start), fragments }
}

function findRepeat(tokens: readonly Token[], alive: readonly number[]): { at: number; size: number } | null {
  const keys = alive.map((i) => tokens[i]!.key)
  for (let size = Math.floor(keys.length / 2); size >= MIN_FRAGMENT_WORDS; size--) {
    for (let at = 0; at + 2 * size <= keys.length; at++) {
      const first = keys.slice(at, at + size)
      if (!first.some((k) => STREET_SUFFIXES.has(k))) continue
      if (!first.every((k, n) => k === keys[at + size + n])) continue
      // The copy must be contiguous in the original text to be removed as one run.
      if (alive[at + 2 * size - 1]! - alive[at + size]! !== size - 1) continue
      return { at, size }
    }
  }
  return null
}
