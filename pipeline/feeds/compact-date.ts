// Dates written `YYYYMMDD`, as the SST rate and boundary files and IDOR's ordmache records write them.

/** `YYYYMMDD` → ISO date, or null when it is not a real calendar date. */
export function parseCompactDate(text: string): string | null {
  const match = /^(\d{4})(\d{2})(\d{2})$/.exec(text)
  if (!match) return null
  const [, year, month, day] = match.map(Number)
  const date = new Date(Date.UTC(year, month - 1, day))
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null
  return `${match[1]}-${match[2]}-${match[3]}`
}
