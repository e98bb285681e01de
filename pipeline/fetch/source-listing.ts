// The files a publisher lists on an index page, read once per run and shared by the states that
// use the page (the SST Rates/ page serves every SST state).
//
// Where the page comes from follows the source location:
// - the publisher: GET the index page (conditionally, kept under build/raw/<feed>/ like a file),
//   links resolved against the page's URL;
// - a mirror URL: GET `<base>/<feed>/`, which must answer an HTML index page linking the files
//   (what nginx autoindex, Apache or `python3 -m http.server` serve for a directory);
// - a mirror directory: the names of the files in `<root>/<feed>/`.
import { readdir } from 'node:fs/promises'
import path from 'node:path'
import { sha256Hex } from '../../snapshot-contract/file-bytes.ts'
import { download, FetchError } from './fetch-source.ts'
import { linkedFiles } from './html-links.ts'
import { localMirrorFolder } from './local-source-names.ts'
import type { PipelineSettings, SourceLocation } from '../settings.ts'

export type ListedFile = {
  /** file name as listed */
  name: string
  /** where the publisher serves it (resolved link of the official page, or the name beside the page) */
  officialUrl: string
}

export type Listing = {
  /** the page read, or the mirror folder standing for it (named without the machine's path) */
  where: string
  /** every link, files and navigation alike */
  files: ListedFile[]
  /** 'not-modified' when the page answered 304 to a conditional request */
  cache: 'fresh' | 'not-modified' | 'mirror-dir'
}

export class Listings {
  readonly #pages = new Map<string, Promise<Listing>>()
  /** a mirror URL serves one page for a feed's every index (SST's Rates/ and Boundary/ are both `<base>/sst/`): read once */
  readonly #downloads = new Map<string, ReturnType<typeof download>>()

  constructor(
    private readonly settings: PipelineSettings,
    private readonly location: SourceLocation = settings.mirror,
  ) {}

  /** The listing of `feed`'s index page `indexUrl`, read once per run. */
  get(feed: string, indexUrl: string): Promise<Listing> {
    const key = `${feed} ${indexUrl}`
    let page = this.#pages.get(key)
    if (!page) this.#pages.set(key, (page = readListing(feed, indexUrl, this.location, this.#downloadOnce)))
    return page
  }

  readonly #downloadOnce = (feed: string, pageUrl: string): ReturnType<typeof download> => {
    let page = this.#downloads.get(pageUrl)
    if (!page) this.#downloads.set(pageUrl, (page = download({ feed, fileName: `index-${sha256Hex(Buffer.from(pageUrl)).slice(0, 12)}.html` }, pageUrl, this.settings)))
    return page
  }
}

async function readListing(feed: string, indexUrl: string, location: SourceLocation, downloadPage: (feed: string, pageUrl: string) => ReturnType<typeof download>): Promise<Listing> {
  if (location.kind === 'dir') {
    const entries = await readdir(path.join(location.root, feed), { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
      throw new FetchError(`cannot list ${localMirrorFolder(feed)} (${error.code ?? error.message})`, { notFound: error.code === 'ENOENT' })
    })
    const files = entries.filter((entry) => entry.isFile() || entry.isSymbolicLink()).map((entry) => entry.name).sort()
    return { where: localMirrorFolder(feed, indexUrl), files: files.map((name) => ({ name, officialUrl: new URL(encodeURIComponent(name), indexUrl).href })), cache: 'mirror-dir' }
  }
  const pageUrl = location.kind === 'url' ? `${location.base}/${feed}/` : indexUrl
  const page = await downloadPage(feed, pageUrl)
  const files = linkedFiles(page.bytes.toString('utf8')).flatMap(({ name, href }) => {
    try {
      const officialUrl = location.kind === 'url' ? new URL(encodeURIComponent(name), indexUrl).href : new URL(href, pageUrl).href
      return [{ name, officialUrl }]
    } catch {
      return []
    }
  })
  return { where: pageUrl, files, cache: page.cache === 'not-modified' ? 'not-modified' : 'fresh' }
}
