// A download that failed: the name, the URL and the proxy in its message, the HTTP status when the server answered.
export class FetchError extends Error {
  /** the HTTP status when the server answered with an error */
  readonly status: number | undefined
  /** the server answered 404, or the mirror directory has no such file: the name, not the fetch, is at fault */
  readonly notFound: boolean

  constructor(message: string, options: { status?: number; notFound?: boolean } = {}) {
    super(message)
    this.status = options.status
    this.notFound = options.notFound ?? options.status === 404
  }
}
