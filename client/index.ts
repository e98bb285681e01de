// @taxatlas/client: the typed client of the taxatlas API. Needs nothing at run time but fetch.
export { TaxatlasClient } from './taxatlas-client.ts'
export { DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_SECONDS, type TaxatlasClientOptions } from './client-options.ts'
export type { CallOptions } from './transport.ts'
export {
  AuthenticationError,
  ForbiddenError,
  NotFoundError,
  PaymentRequiredError,
  RateLimitError,
  ServiceError,
  TaxatlasError,
  ValidationError,
} from './errors.ts'
export type * from './types.ts'
