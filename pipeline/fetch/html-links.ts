// The links of a publisher's HTML page, read by an HTML parser (htmlparser2): what an index page
// lists (an IIS or Apache directory listing, the SST Rates/ page) and what a rates page links by
// its text (Missouri's periods, Colorado's half-years, New Mexico's dataset titles). Tag and
// attribute case, quoting, entities and markup inside a link's text are the parser's to read.
import { Parser } from 'htmlparser2'

/** A link as the page holds it: `href` as written (unresolved), `text` without tags, entities decoded, white space collapsed. */
export type PageLink = { href: string; text: string }

/** A file a page links: its name (the last segment of the link's path, decoded) and the link as written. */
export type LinkedFile = { name: string; href: string }

/** Every `<a href>` of the page, in page order; an `<a>` without an href is no link. */
export function pageLinks(html: string): PageLink[] {
  const links: PageLink[] = []
  let open: PageLink | null = null
  const close = () => {
    if (open) links.push({ href: open.href.trim(), text: open.text.replace(/\s+/g, ' ').trim() })
    open = null
  }
  const parser = new Parser({
    onopentag(name, attributes) {
      if (name !== 'a') return
      close()
      if (attributes.href !== undefined) open = { href: attributes.href, text: '' }
    },
    ontext(text) {
      if (open) open.text += text
    },
    onclosetag(name) {
      if (name === 'a') close()
    },
  }, { decodeEntities: true })
  parser.end(html)
  close()
  return links
}

/** The last segment of a link's path, without query or fragment, percent-decoded ('' for a folder or a query-only link). */
export function linkedFileName(href: string): string {
  const path = href.trim().split(/[?#]/)[0]!
  const segment = path.slice(path.lastIndexOf('/') + 1)
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}

/** The files an index page links, in page order, the first link of each name (folders, sort links and the parent are none). */
export function linkedFiles(html: string): LinkedFile[] {
  const files = new Map<string, string>()
  for (const { href } of pageLinks(html)) {
    const name = linkedFileName(href)
    if (name && !files.has(name)) files.set(name, href)
  }
  return [...files].map(([name, href]) => ({ name, href }))
}
