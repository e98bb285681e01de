// The curl command that repeats a request the console sent. The key is never written into it: it
// reads $TAXATLAS_API_KEY, so the command can be shared and screenshots hold no key.
import type { SentRequest } from './console-client.ts'

/** A word for a POSIX shell: in single quotes, a quote written as '\'' */
const quoted = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`

export function curlCommand(request: SentRequest): string {
  const parts = ['curl', '-sS']
  if (request.method !== 'GET') parts.push('-X', request.method)
  parts.push(quoted(request.url))
  if (request.headers.has('x-api-key')) parts.push('-H', '"X-API-Key: $TAXATLAS_API_KEY"')
  if (request.headers.has('authorization')) parts.push('-H', '"Authorization: Bearer $TAXATLAS_API_KEY"')
  return parts.join(' ')
}
