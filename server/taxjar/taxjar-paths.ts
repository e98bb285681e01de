// Where the TaxJar-compatible routes live. TaxJar clients append `/v2/` to their apiUrl, so an
// integration points apiUrl at `<base URL>/taxjar` and every route is under /taxjar/v2. A new
// TaxJar endpoint (e.g. GET /taxjar/v2/rates/:zip) is one route module using these constants and
// TAXJAR_ERRORS, appended to TAXJAR_ROUTES (routes/taxjar-routes.ts).
export const TAXJAR_PREFIX = '/taxjar'
export const TAXJAR_BASE = `${TAXJAR_PREFIX}/v2`
export const TAXJAR_TAGS = ['taxjar'] as const
