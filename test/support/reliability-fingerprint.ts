// Everything an account's requests can change, read back through the API: lookups counted, the
// nexus registration list, the per-state totals of nexus health, and the ids of its orders and
// refunds under each provider a request may have written to.

const normalizedProvider = (provider: string) => provider.trim().toLowerCase()

export type AccountState = {
  /** lookups counted this month */
  used: number
  /** registrations and nexus totals, as one comparable string */
  stored: string
  /** per provider: its order and refund ids, as a comparable string */
  listed: Map<string, string>
}

async function getJson(url: string, key: string, path: string): Promise<any> {
  const response = await fetch(`${url}${path}`, { headers: { 'X-API-Key': key } })
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`)
  return response.json()
}

/** Lookups counted this month: all a GET can change. */
export const readLookupsUsed = async (url: string, key: string): Promise<number> => (await getJson(url, key, '/v1/account')).quota.used

/** The state of the account behind `key`; transaction ids are listed for `api`, `taxjar` and `providers`. */
export async function readAccountState(url: string, key: string, providers: string[] = []): Promise<AccountState> {
  const get = (path: string) => getJson(url, key, path)
  const used = await readLookupsUsed(url, key)
  const registrations = await get('/v1/portability/nexus')
  const health = await get('/v1/portability/nexus/health')
  const listed = new Map<string, string>()
  for (const provider of providerNames(providers)) {
    const query = `?provider=${encodeURIComponent(provider)}`
    listed.set(provider, JSON.stringify([(await get(`/taxjar/v2/transactions/orders${query}`)).orders, (await get(`/taxjar/v2/transactions/refunds${query}`)).refunds]))
  }
  const stored = JSON.stringify({
    regions: registrations.regions.map((r: { state: string; registered_since: string | null }) => [r.state, r.registered_since]),
    totals: health.states.map((s: { state: string; order_total: string; transaction_count: number }) => [s.state, s.order_total, s.transaction_count]),
  })
  return { used, stored, listed }
}

/** `api`, `taxjar` and the providers named, as the server keys them (trimmed, lower case, 1-64 characters). */
function providerNames(providers: string[]): string[] {
  return [...new Set(['api', 'taxjar', ...providers.map(normalizedProvider).filter((p) => p.length > 0 && p.length <= 64)])]
}

/** An account with nothing stored under a provider lists no orders and no refunds for it. */
export const NOTHING_LISTED = JSON.stringify([[], []])
