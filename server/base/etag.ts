// Strong ETags for precomputed bodies and the If-None-Match check that turns a repeat poll into a 304.
import { createHash } from 'node:crypto'
import type { IncomingMessage } from 'node:http'

export const etagOf = (text: string) => `"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"`

export function matchesIfNoneMatch(req: IncomingMessage, etag: string): boolean {
  const header = req.headers['if-none-match']
  if (!header) return false
  if (header.trim() === '*') return true
  // Weak comparison (RFC 9110 13.1.2): W/"x" matches "x".
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)
}
