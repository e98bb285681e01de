// Dates as publishers print them, read to ISO dates: `YYYYMMDD` (the SST rate and boundary files,
// IDOR's ordmache records), `M/D/YY` or `M/D/YYYY` (SCDOR's column heads and revision notes, Arizona's
// rate table, Florida's and Alaska's "as of" lines, the CDTFA and ARSSTC file names) and `Month D, YYYY`
// (the "Effective" lines of NY's Publication 718 and SCDOR's ST-500).

/** `YYYYMMDD` → ISO date, or null when it is not a real calendar date. */
export function parseCompactDate(text: string): string | null {
  const match = /^(\d{4})(\d{2})(\d{2})$/.exec(text)
  if (!match) return null
  const [, year, month, day] = match.map(Number)
  const date = new Date(Date.UTC(year, month - 1, day))
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null
  return `${match[1]}-${match[2]}-${match[3]}`
}

const pad = (digits: string) => digits.padStart(2, '0')

/** `M/D/YY` or `M/D/YYYY` in a text: month, day and year as groups 1–3. */
export const SLASH_DATE = /(\d{1,2})\/(\d{1,2})\/(\d{4}|\d{2})(?!\d)/

/** Month, day and a 4-digit year or a 2-digit one (20YY), as printed → ISO date. */
export const slashDateIso = (month: string, day: string, year: string): string => `${year.length === 2 ? `20${year}` : year}-${pad(month)}-${pad(day)}`

/** An "Effective <Month D, YYYY>" line: the month's name, day and year as groups 1–3. */
export const EFFECTIVE_DATE = /Effective\s+([A-Za-z]+)\s+(\d{1,2}),\s*(\d{4})/

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december']

/** A month's name, a day and a year → ISO date; null when the name is no month's. */
export function monthNameDateIso(month: string, day: string, year: string): string | null {
  const index = MONTHS.indexOf(month.toLowerCase())
  return index < 0 ? null : `${year}-${pad(String(index + 1))}-${pad(day)}`
}
