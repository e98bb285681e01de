// What the feed adapters (feeds/<kind>/adapter.ts) share to choose which edition of a state's source to
// load: the newest one its publisher lists, unless the operator pinned one (TAXATLAS_PIN).
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { download, FetchError, locate, type SourceRequest } from './fetch-source.ts'
import { NoFileForState } from './no-file-for-state.ts'
import type { PipelineSettings } from '../settings.ts'
import type { Listings } from './source-listing.ts'

export type EditionChoice = {
  request: SourceRequest
  /** the file is the page's answer to this button's postback (request.officialUrl is the page), not a download of its own */
  postback?: string
  /** the edition the file name carries: `2026Q2FEB19`, `2026-01-01` */
  edition: string
  pinned: boolean
  /** how it was chosen, for the manifest's notes */
  how: string
}

/** The edition of a file the publisher keeps at one address with no edition in its name. */
export const CURRENT_EDITION = 'current'

export type ChoiceContext = { settings: PipelineSettings; listings: Listings }

/** A publisher's page read as text: at its URL, or on a mirror as the file `request.fileName` of the feed's folder. */
export async function readPage(request: SourceRequest, settings: PipelineSettings): Promise<string> {
  const at = locate(request, settings.mirror)
  const bytes = at.kind === 'file'
    ? await readFile(at.where).catch((error: NodeJS.ErrnoException) => {
        throw new FetchError(`cannot read ${request.feed}/${request.fileName} of the mirror (${error.code ?? error.message})`, { notFound: error.code === 'ENOENT' })
      })
    : (await download(request, at.where, settings)).bytes
  return bytes.toString('utf8')
}

/**
 * A feed's listing; a mirror (TAXATLAS_MIRROR) with no folder for the feed carries none of its files,
 * so the state's next feed serves (NoFileForState). At the publisher, a missing page is a failure.
 */
export async function listingOrNoFile(feed: string, pageUrl: string, context: ChoiceContext) {
  return orNoFileOnMirror(feed, context.settings, () => context.listings.get(feed, pageUrl))
}

/** `read()`, with a mirror's missing file or folder for `feed` turned into NoFileForState (at the publisher it stays a failure). */
export async function orNoFileOnMirror<T>(feed: string, settings: PipelineSettings, read: () => Promise<T>): Promise<T> {
  try {
    return await read()
  } catch (error) {
    if (settings.mirror.kind !== 'official' && error instanceof FetchError && error.notFound) throw new NoFileForState(`the mirror holds no ${feed} files (${error.message})`)
    throw error
  }
}

/** A file published under one fixed name for its current edition (IDOR's ordmache-current.txt): fetched as it is. */
export function currentFileChoice(feed: string, url: string): EditionChoice {
  const fileName = decodeURIComponent(path.posix.basename(new URL(url).pathname))
  return { request: { feed, fileName, officialUrl: url }, edition: CURRENT_EDITION, pinned: false, how: `${fileName}: the publisher's current file at its fixed address` }
}

export const pinnedChoice = (feed: string, fileName: string, indexUrl: string, edition: string): EditionChoice => ({
  request: { feed, fileName, officialUrl: new URL(fileName, indexUrl).href },
  edition,
  pinned: true,
  how: `${fileName}: pinned by the operator (TAXATLAS_PIN); newer editions are not looked for`,
})

export const pinsOf = (state: string, settings: PipelineSettings): readonly string[] => settings.pins.get(state) ?? []
