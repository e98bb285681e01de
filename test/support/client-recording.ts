// Helpers of the client tests: a client that records its attempts and the waits it asks for
// (instead of sleeping), and the error a call rejects with.
import { TaxatlasClient, type TaxatlasClientOptions } from '../../client/index.ts'

/** A client on `baseUrl` whose waits are recorded instead of slept; `calls()` counts the fetches it made. */
export function recordingClient(baseUrl: string, options: Partial<TaxatlasClientOptions> = {}) {
  const waits: number[] = []
  let calls = 0
  const fetchOf: typeof fetch = options.fetch ?? ((input, init) => fetch(input, init))
  const client = new TaxatlasClient({
    baseUrl,
    sleep: async (seconds) => void waits.push(seconds),
    ...options,
    fetch: (input, init) => {
      calls++
      return fetchOf(input, init)
    },
  })
  return { client, waits, calls: () => calls }
}

/** The error `promise` rejects with; fails the test when it resolves. */
export async function rejection(promise: Promise<unknown>): Promise<any> {
  try {
    await promise
  } catch (error) {
    return error
  }
  throw new Error('expected the call to fail')
}
