// A file an ASP.NET page answers to a button's postback rather than at an address of its own
// (Florida's PointMatch "Download All"): GET the page, send its form back with the hidden state
// fields (__VIEWSTATE, __EVENTVALIDATION, …) and the button, and take the answer as the file.
import got, { HTTPError } from 'got'
import { Parser } from 'htmlparser2'
import { sha256Hex } from '../../snapshot-contract/file-bytes.ts'
import { assertBodyKind } from './body-kind.ts'
import { download, FetchError, type FetchedSource, type SourceRequest } from './fetch-source.ts'
import { agentsFor } from './proxy-agents.ts'
import type { PipelineSettings } from '../settings.ts'

/** The form fields a browser would send for `button`: every hidden input, and the button's own name and value. */
export function postbackFields(html: string, button: string): Record<string, string> {
  const fields: Record<string, string> = {}
  let pressed = false
  const parser = new Parser({
    onopentag(tag, attributes) {
      const { name, value } = attributes
      if (tag !== 'input' || !name) return
      const type = (attributes.type ?? 'text').toLowerCase()
      if (type === 'hidden') fields[name] = value ?? ''
      if (type === 'submit' && value === button) {
        fields[name] = button
        pressed = true
      }
    },
  }, { decodeEntities: true })
  parser.end(html)
  if (!pressed) throw new FetchError(`the page has no "${button}" button`)
  if (!('__VIEWSTATE' in fields)) throw new FetchError('the page has no __VIEWSTATE field: not the ASP.NET form expected')
  return fields
}

/** `request.officialUrl`'s page posted back with `button` pressed; the answer must be what `request.fileName` says. */
export async function fetchByPostback(request: SourceRequest, button: string, settings: PipelineSettings): Promise<FetchedSource> {
  const page = await download({ feed: request.feed, fileName: `${request.fileName}.page.html` }, request.officialUrl, settings)
  let fields: Record<string, string>
  try {
    fields = postbackFields(page.bytes.toString('utf8'), button)
  } catch (error) {
    throw new FetchError(`${request.fileName}: ${request.officialUrl}: ${(error as Error).message}`)
  }
  let bytes: Buffer
  // The POST takes the proxy the page's GET took (HTTPS_PROXY, NO_PROXY), not a direct connection.
  const { agent, proxy } = agentsFor(request.officialUrl)
  try {
    const response = await got.post(request.officialUrl, {
      form: fields,
      agent,
      headers: { 'user-agent': 'taxatlas-refresh (+https://github.com/taxatlas)' },
      responseType: 'buffer',
      timeout: { request: settings.fetchTimeoutMs },
      retry: { limit: settings.fetchRetries, methods: ['POST'], statusCodes: [408, 429, 500, 502, 503, 504] },
    })
    bytes = response.rawBody
  } catch (error) {
    const status = error instanceof HTTPError ? error.response.statusCode : undefined
    throw new FetchError(`${request.fileName}: POST ${request.officialUrl} ("${button}")${proxy ? ` through the proxy ${proxy}` : ''} failed: ${(error as Error).message}`, { status })
  }
  try {
    assertBodyKind(request.fileName, bytes)
  } catch (error) {
    throw new FetchError(`${(error as Error).message} (the "${button}" postback of ${request.officialUrl})`)
  }
  return { url: request.officialUrl, name: request.fileName, sha256: sha256Hex(bytes), size: bytes.length, bytes, cache: 'fresh' }
}
