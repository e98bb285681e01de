// SCDOR form ST-500, "South Carolina Local Tax Designation by County" (publisher-evidence-remaining.md
// §2.1): each county's local taxes and total, under an "Effective <Month D, YYYY>" line (its date is
// the one that counts; the "(Rev. M/D/YYYY)" beside it is only when the form was revised). Its row
// layout is not documented beyond that, so its lines are read as text: a line beginning with a
// county's name and ending with a percent is that county's total (the compiler matches the names).
import { parseRatePercent } from '../../../snapshot-contract/rate-units.ts'
import { linesOf, pdfTextItems } from '../pdf-text.ts'
import { EFFECTIVE_DATE, monthNameDateIso } from '../printed-dates.ts'

export type St500Line = { text: string; total: number }
export type St500 = { fileName: string; effective: string; lines: St500Line[] }

const TOTAL_AT_END = /(\d+(?:\.\d+)?)\s*%$/

export async function parseSt500(bytes: Uint8Array, fileName: string): Promise<St500> {
  const lines = linesOf(await pdfTextItems(bytes, fileName))
  const date = lines.map((line) => EFFECTIVE_DATE.exec(line.text)).find(Boolean)
  const effective = date && monthNameDateIso(date[1]!, date[2]!, date[3]!)
  if (!effective) throw new Error(`${fileName}: no "Effective <Month D, YYYY>" line, so its totals have no date (the revision date is not one)`)
  const totals = lines.flatMap((line) => {
    const match = TOTAL_AT_END.exec(line.text)
    const parsed = match && parseRatePercent(match[1]!)
    return parsed?.ok && /^[A-Za-z]/.test(line.text) ? [{ text: line.text, total: parsed.units }] : []
  })
  return { fileName, effective, lines: totals }
}
