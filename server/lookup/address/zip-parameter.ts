// The `zip` query parameter: a ZIP or ZIP+4, possibly with a doubled +4 or a trailing country.
import { readAddressTail } from './address-tail.ts'
import { EditedText } from './edited-text.ts'
import type { RepairLog } from './repair-log.ts'
import { tokenize } from './tokens.ts'
import type { FieldError } from './types.ts'
import { collapseFieldWhitespace } from './whitespace-repair.ts'
import { removeCountryToken, repairZipSuffix } from './zip-repairs.ts'
import { readZip, type ParsedZip } from './zip-text.ts'

export function readZipParameter(raw: string, log: RepairLog): { ok: true; zip: ParsedZip } | FieldError {
  const collapsed = collapseFieldWhitespace('zip', raw, log)
  const text = new EditedText(tokenize(collapsed))
  const reading = readAddressTail(text.tokens)
  if (!reading.ok) return { ok: false, field: 'zip', reason: reading.reason }
  const { tail } = reading
  if (!tail.zip || tail.state || tail.remainderEnd > 0) {
    return { ok: false, field: 'zip', reason: `ZIP "${collapsed}" is not a 5-digit ZIP or ZIP+4` }
  }
  const zip = readZip(tail.zip.text)
  if (!zip.ok) return { ok: false, field: 'zip', reason: zip.reason }
  repairZipSuffix(text, 'zip', tail.zip, zip.zip, log)
  if (tail.country) removeCountryToken(text, 'zip', tail.country, log)
  return { ok: true, zip: zip.zip }
}
