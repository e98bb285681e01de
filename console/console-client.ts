// The typed client as the console's pages use it: calls to this page's own server, no retries (the
// playground shows each answer as it came), and the last request remembered for its curl command.
import { TaxatlasClient } from '../client/index.ts'

export type SentRequest = { method: string; url: string; headers: Headers }

export type ConsoleClient = {
  client: TaxatlasClient
  /** the last request sent, once one was */
  lastRequest: () => SentRequest | null
}

/** A client for `apiKey` (none for the public routes); the key lives in this object only. */
export function consoleClient(apiKey?: string): ConsoleClient {
  let last: SentRequest | null = null
  const client = new TaxatlasClient({
    baseUrl: location.origin,
    apiKey,
    maxRetries: 0,
    timeout: 30,
    fetch: (input, init) => {
      last = { method: init?.method ?? 'GET', url: String(input), headers: new Headers(init?.headers) }
      return fetch(input, init)
    },
  })
  return { client, lastRequest: () => last }
}
