// Publishers answer a missing or moved file with an HTML page and status 200 (a sign-in form, a
// "page not found" page, a maintenance notice): the bytes must be what the file name says.
import { isZipContainer } from './archive.ts'

const CONTAINERS = /\.(zip|xlsx)$/i

/** Throws when the bytes are an HTML page, a PDF in place of another kind of file, or a .zip/.xlsx that is no ZIP container. */
export function assertBodyKind(fileName: string, bytes: Buffer): void {
  const html = htmlTitle(bytes)
  if (html !== null) {
    throw new Error(`${fileName}: the server answered an HTML page${html ? ` ("${html}")` : ''} in place of the file`)
  }
  if (bytes.subarray(0, 5).toString('latin1') === '%PDF-' && !/\.pdf$/i.test(fileName)) {
    throw new Error(`${fileName}: the server answered a PDF document in place of the file`)
  }
  if (CONTAINERS.test(fileName) && !isZipContainer(bytes)) {
    throw new Error(`${fileName}: not a ZIP container (starts with ${JSON.stringify(bytes.subarray(0, 16).toString('latin1'))})`)
  }
}

/** The page title when the bytes start like an HTML document ('' without a title); null otherwise. */
export function htmlTitle(bytes: Buffer): string | null {
  const head = bytes.subarray(0, 2048).toString('latin1').replace(/^\uFEFF|^\u00EF\u00BB\u00BF/, '').trimStart()
  if (!/^<(!doctype\s+html|html[\s>]|head[\s>]|body[\s>]|!--)/i.test(head)) return null
  // Read as UTF-8, what publishers' pages are served in: a title such as "Log In ‹ …" reads as written in the note.
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(bytes.subarray(0, 65_536).toString('utf8'))
  return title ? title[1]!.replace(/\s+/g, ' ').trim().slice(0, 120) : ''
}
