// A StoreGate over a store given as a promise, for tests of the request path that need a gate but
// not the server's supervisor (store-supervisor.ts): key routes wait for the promise, and get 503
// SERVICE_UNAVAILABLE if it rejects.
import { HttpError } from '../../server/base/errors.ts'
import { STORE_UNAVAILABLE_MESSAGE, type StoreGate, type StoreParts } from '../../server/store/store.ts'

const RETRY_AFTER_SECONDS = 30

/** The gate over a store being opened; a gate over an already open store is `gateStore(Promise.resolve(parts))`. */
export function gateStore(opening: Promise<StoreParts>): StoreGate {
  const ready = opening.then(
    (parts) => parts,
    () => {
      throw new HttpError('SERVICE_UNAVAILABLE', STORE_UNAVAILABLE_MESSAGE, { retry_after: RETRY_AFTER_SECONDS }, {
        'Retry-After': String(RETRY_AFTER_SECONDS),
      })
    },
  )
  const gate: StoreGate & { opened: StoreParts | null } = {
    ready,
    opened: null,
    health: () => (gate.opened ? { status: 'ok' } : { status: 'opening' }),
  }
  // Rejection is an answer for the requests that await it, not an unhandled error of the process.
  ready.then((parts) => (gate.opened = parts)).catch(() => undefined)
  return gate
}
