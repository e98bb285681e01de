// The URL of a call: the base URL (which may carry a path prefix), the route path and the query
// parameters that were given.

export type QueryValue = string | number | undefined

/** A number as the server's decimal parser reads it: never in exponent form (1e-7). */
function decimal(value: number): string {
  if (!Number.isFinite(value)) throw new RangeError(`${value} is not a finite number`)
  const text = String(value)
  return text.includes('e') ? value.toFixed(12).replace(/\.?0+$/, '') : text
}

export function requestUrl(baseUrl: string, path: string, query: Record<string, QueryValue> = {}): string {
  const search = new URLSearchParams()
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue
    search.append(name, typeof value === 'number' ? decimal(value) : value)
  }
  const queryText = search.toString()
  return `${baseUrl.replace(/\/+$/, '')}${path}${queryText ? `?${queryText}` : ''}`
}
