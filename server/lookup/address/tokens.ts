// Words of a field with the separators between them, so repairs can be replayed on the text as written.

export type Token = {
  text: string
  /** upper case without periods: "St." → "ST", "P.O." → "PO" */
  key: string
  /** text between this word and the next (" ", ", ", ","); trailing text for the last word */
  sep: string
}

export type TokenizedText = { lead: string; tokens: Token[] }

/** Tokens [start, end) replaced by `words` (removed when empty). */
export type Edit = { start: number; end: number; words: string[] }

const tokenKey = (text: string): string => text.toUpperCase().replace(/\./g, '')

export function tokenize(text: string): TokenizedText {
  const spans = [...text.matchAll(/[^\s,]+/g)].map((m) => ({ start: m.index, end: m.index + m[0].length }))
  const tokens = spans.map((span, i) => {
    const word = text.slice(span.start, span.end)
    return { text: word, key: tokenKey(word), sep: text.slice(span.end, spans[i + 1]?.start ?? text.length) }
  })
  return { lead: text.slice(0, spans[0]?.start ?? text.length), tokens }
}

export const hasComma = (sep: string): boolean => sep.includes(',')

/**
 * The text with the edits applied. Edits must not overlap, except that a later edit of exactly the
 * same span replaces an earlier one (a state name turned into a code, then into the ZIP's state).
 */
export function renderWithEdits({ lead, tokens }: TokenizedText, edits: readonly Edit[]): string {
  const byStart = new Map<number, Edit>()
  for (const edit of edits) byStart.set(edit.start, edit)
  const out: { text: string; sep: string }[] = []
  for (let i = 0; i < tokens.length; ) {
    const edit = byStart.get(i)
    if (!edit) {
      out.push(tokens[i]!)
      i++
      continue
    }
    const closingSep = tokens[edit.end - 1]!.sep
    // A removed run hands its closing separator to the word before it: "St 123 Main St, Seattle" → "St, Seattle".
    if (edit.words.length === 0 && out.length > 0) out[out.length - 1] = { ...out[out.length - 1]!, sep: closingSep }
    edit.words.forEach((w, n) => out.push({ text: w, sep: n === edit.words.length - 1 ? closingSep : ' ' }))
    i = edit.end
  }
  return lead + out.map((t) => t.text + t.sep).join('')
}
