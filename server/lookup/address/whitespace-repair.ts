// Rule whitespace_collapsed applied to one field.
import { RULE } from './rules.ts'
import type { RepairLog } from './repair-log.ts'
import { whitespaceMessage, type InputField } from './repair-messages.ts'
import { collapseWhitespace } from './whitespace.ts'

/** The field with whitespace collapsed; logs the repair when anything changed. */
export function collapseFieldWhitespace(field: InputField, raw: string, log: RepairLog): string {
  const { text, kinds } = collapseWhitespace(raw)
  if (kinds.length > 0) {
    log.add({ rule: RULE.whitespace, field, raw, normalized: text, confidence: 'unambiguous', detail: { kinds }, warning: whitespaceMessage(field) })
  }
  return text
}
