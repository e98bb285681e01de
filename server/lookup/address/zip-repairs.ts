// Rules zip4_suffix_repaired and country_token_removed, shared by the address and the zip parameter.
import type { Span } from './address-tail.ts'
import type { EditedText } from './edited-text.ts'
import { RULE } from './rules.ts'
import type { RepairLog } from './repair-log.ts'
import { countryTokenMessage, zip4SuffixMessage, type InputField } from './repair-messages.ts'
import { formatZip, type ParsedZip } from './zip-text.ts'

export function repairZipSuffix(text: EditedText, field: InputField, span: Span & { text: string }, zip: ParsedZip, log: RepairLog): void {
  if (zip.extraPlus4.length === 0) return
  const served = formatZip(zip.zip5, zip.zip4)
  const repeatedIdentically = zip.extraPlus4.every((plus4) => plus4 === zip.zip4)
  const { before, after } = text.apply([{ start: span.start, end: span.end, words: [served] }])
  log.add({
    rule: RULE.zip4Suffix,
    field,
    raw: before,
    normalized: after,
    confidence: repeatedIdentically ? 'unambiguous' : 'heuristic',
    detail: { zip5: zip.zip5, kept_plus4: zip.zip4, dropped_plus4: zip.extraPlus4, repeated_identically: repeatedIdentically },
    warning: zip4SuffixMessage(field, span.text, served, repeatedIdentically),
  })
}

export function removeCountryToken(text: EditedText, field: InputField, span: Span & { text: string }, log: RepairLog): void {
  const { before, after } = text.apply([{ start: span.start, end: span.end, words: [] }])
  log.add({
    rule: RULE.countryToken,
    field,
    raw: before,
    normalized: after,
    confidence: 'unambiguous',
    detail: { token: span.text },
    warning: countryTokenMessage(field, span.text),
  })
}
