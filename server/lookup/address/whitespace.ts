// Redundant whitespace in a field (rule whitespace_collapsed).

export type WhitespaceKind = 'repeated_space' | 'tab_or_other_whitespace' | 'space_before_comma' | 'leading_or_trailing'

export type CollapsedText = { text: string; kinds: WhitespaceKind[] }

export function collapseWhitespace(raw: string): CollapsedText {
  const text = raw.replace(/\s+/g, ' ').replace(/ ,/g, ',').trim()
  if (text === raw) return { text, kinds: [] }
  const kinds: WhitespaceKind[] = []
  if (/ {2,}/.test(raw)) kinds.push('repeated_space')
  if (/[^\S ]/.test(raw)) kinds.push('tab_or_other_whitespace')
  if (/\s,/.test(raw)) kinds.push('space_before_comma')
  if (/^\s|\s$/.test(raw)) kinds.push('leading_or_trailing')
  return { text, kinds }
}
