// CSV tables whose every record is one line (no quoted line breaks: true of every held Avalara
// table and of SST files), read a line at a time: a broken line, such as an unclosed quote, costs
// that row alone, where one pass over the whole text reads every row after it into one field.
import Papa from 'papaparse'

/** One line's fields, or why it is not a CSV record. The tokenizer runs only when quotes are present (rare, and slower). */
export function splitCsvLine(text: string, delimiter = ','): { fields: string[] } | { error: string } {
  if (!text.includes('"')) return { fields: text.split(delimiter) }
  const parsed = Papa.parse<string[]>(text, { header: false, delimiter })
  if (parsed.errors.length > 0) return { error: `CSV: ${parsed.errors[0]!.message}` }
  return { fields: parsed.data[0] ?? [] }
}

/** A record of a table: its 1-based line number, and its fields or why the line is not one (with its text, to name it by). */
export type CsvLine = { line: number } & ({ fields: string[] } | { error: string; text: string })

/** The records of `text`, one per line; lines with no content (blank, or only delimiters) are skipped. */
export function csvLines(text: string, delimiter = ','): CsvLine[] {
  const records: CsvLine[] = []
  let line = 0
  for (const raw of text.split('\n')) {
    line++
    const row = raw.endsWith('\r') ? raw.slice(0, -1) : raw
    const split = splitCsvLine(row, delimiter)
    if ('fields' in split && split.fields.every((field) => field.trim() === '')) continue
    records.push('fields' in split ? { line, ...split } : { line, ...split, text: row })
  }
  return records
}
