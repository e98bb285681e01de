// A file an ASP.NET page answers to a button's postback rather than at an address of its own
// (Florida's PointMatch "Download All"): GET the page, send its form back with the hidden state
// fields (__VIEWSTATE, __EVENTVALIDATION, …) and the button, and take the answer as the file.
import { sha256Hex } from '../../snapshot-contract/file-bytes.ts'
import { assertBodyKind } from './body-kind.ts'
import { download, FetchError, type FetchedSource, type SourceRequest } from './fetch-source.ts'
import { pageForm } from './html-form.ts'
import { httpRequest } from './http-client.ts'
import type { PipelineSettings } from '../settings.ts'

/** The form fields a browser would send for `button`: every hidden input, and the button's own name and value. */
export function postbackFields(html: string, button: string): Record<string, string> {
  const { hidden, submits } = pageForm(html)
  const pressed = submits.find((submit) => submit.value === button)
  if (!pressed) throw new FetchError(`the page has no "${button}" button`)
  if (!('__VIEWSTATE' in hidden)) throw new FetchError('the page has no __VIEWSTATE field: not the ASP.NET form expected')
  return { ...hidden, [pressed.name]: button }
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
  const bytes = await postForm(request.officialUrl, fields, settings, `${request.fileName} ("${button}" postback)`)
  try {
    assertBodyKind(request.fileName, bytes)
  } catch (error) {
    throw new FetchError(`${(error as Error).message} (the "${button}" postback of ${request.officialUrl})`)
  }
  return { url: request.officialUrl, name: request.fileName, sha256: sha256Hex(bytes), size: bytes.length, bytes, cache: 'fresh' }
}

/** `url` posted back with `fields` (form-encoded): the answer's bytes; a failure names `what`, the URL, the proxy and the status. */
export async function postForm(url: string, fields: Record<string, string>, settings: PipelineSettings, what: string): Promise<Buffer> {
  // The POST takes the proxy the page's GET took (HTTPS_PROXY, NO_PROXY), not a direct connection.
  const { body } = await httpRequest(
    'POST',
    url,
    { timeoutMs: settings.fetchTimeoutMs, retries: settings.fetchRetries, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() },
    what,
  )
  return body
}
