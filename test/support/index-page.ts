// An HTML index page for a directory of the mirror, as nginx autoindex or `python3 -m http.server`
// render one: the pipeline discovers editions from `<mirror>/<feed>/` the way it reads the
// publishers' index pages (pipeline/fetch/source-listing.ts).
import { readdir } from 'node:fs/promises'
import type http from 'node:http'
import path from 'node:path'

/** Renders an index page of `files`, links relative to the directory. */
export function indexPageHtml(title: string, files: string[]): string {
  const links = files.map((name) => `<a href="${encodeURIComponent(name)}">${name}</a><br>`).join('\n')
  return `<!DOCTYPE html>\n<html><head><title>Index of ${title}</title></head><body><h1>Index of ${title}</h1>\n<a href="../">../</a><br>\n${links}\n</body></html>\n`
}

/** Answers a request for a directory of `root` (a path ending in `/`) with its index page; false when it is not one. */
export async function serveIndexPage(root: string, req: http.IncomingMessage, res: http.ServerResponse): Promise<boolean> {
  const urlPath = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)
  if (!urlPath.endsWith('/')) return false
  const dir = path.join(root, path.normalize(urlPath).replace(/^(\.\.[/\\])+/, ''))
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => null)
  if (!entries) return false
  const files = entries.filter((entry) => entry.isFile()).map((entry) => entry.name).sort()
  const body = Buffer.from(indexPageHtml(urlPath, files))
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': body.length }).end(body)
  return true
}
