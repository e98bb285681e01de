// A lookup answered over HTTP in a test: the 200 body parsed by its schema, and its warnings by code.
import { expect } from 'vitest'
import { FullLookupBody, SimpleLookupBody } from '../../server/lookup/tax-response.ts'
import type { LookupServer } from './lookup-server.ts'

async function okBody(server: LookupServer, path: string) {
  const response = await server.get(path)
  expect(response.status, `${path}: ${JSON.stringify(response.body)}`).toBe(200)
  return response.body
}

/** The full-mode answer of `path` (which already holds `mode=full`). */
export const fullLookup = async (server: LookupServer, path: string) => FullLookupBody.parse(await okBody(server, path))

export const simpleLookup = async (server: LookupServer, path: string) => SimpleLookupBody.parse(await okBody(server, path))

export const warningCodes = (warnings: readonly unknown[]) => warnings.filter((w): w is { code: string } => typeof w === 'object').map((w) => w.code)

export const warningOf = (warnings: readonly unknown[], code: string) =>
  warnings.find((w) => typeof w === 'object' && (w as { code: string }).code === code) as Record<string, any>
