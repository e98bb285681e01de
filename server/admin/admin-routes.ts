// The loopback admin listener's routes: the admin operations over HTTP, declared like API routes
// (validated the same way) but never part of /openapi.json.
import * as z from 'zod'
import { defineRoute, type Route } from '../dispatch/route.ts'
import {
  AccountListBody,
  CreateAccountInput,
  CreatedAccountBody,
  CreateKeyInput,
  createAccount,
  createKey,
  IssuedKeyBody,
  listAccounts,
  RevokedKeyBody,
  revokeKey,
  UsageBody,
  UsageQuery,
  usageReport,
  type AdminContext,
} from './operations.ts'

export function adminRoutes(ctx: AdminContext): Route[] {
  const admin = { auth: 'public', tags: ['admin'] } as const
  return [
    defineRoute({
      ...admin,
      method: 'GET',
      path: '/admin/ping',
      operationId: 'adminPing',
      summary: 'Lets the admin command check that this server is the one it found',
      responses: { 200: { description: 'Alive.', schema: z.object({ pid: z.number().int() }) } },
    }).handle(() => ({ status: 200, body: { pid: process.pid } })),
    defineRoute({
      ...admin,
      method: 'POST',
      path: '/admin/accounts',
      operationId: 'adminCreateAccount',
      summary: 'Create an account and its first API key',
      body: CreateAccountInput,
      responses: { 201: { description: 'Created; the key is shown only here.', schema: CreatedAccountBody } },
    }).handle(async ({ body }) => ({ status: 201, body: await createAccount(ctx, body) })),
    defineRoute({
      ...admin,
      method: 'GET',
      path: '/admin/accounts',
      operationId: 'adminListAccounts',
      summary: 'Every account with its keys (prefixes only)',
      responses: { 200: { description: 'The accounts.', schema: AccountListBody } },
    }).handle(async () => ({ status: 200, body: await listAccounts(ctx) })),
    defineRoute({
      ...admin,
      method: 'POST',
      path: '/admin/keys',
      operationId: 'adminCreateKey',
      summary: 'Add an API key to an account',
      body: CreateKeyInput,
      responses: { 201: { description: 'Created; the key is shown only here.', schema: IssuedKeyBody } },
    }).handle(async ({ body }) => ({ status: 201, body: await createKey(ctx, body) })),
    defineRoute({
      ...admin,
      method: 'POST',
      path: '/admin/keys/:key_id/revoke',
      operationId: 'adminRevokeKey',
      summary: 'Revoke an API key',
      params: z.object({ key_id: z.string().min(1) }),
      responses: { 200: { description: 'Revoked.', schema: RevokedKeyBody } },
    }).handle(async ({ params }) => ({ status: 200, body: await revokeKey(ctx, params.key_id) })),
    defineRoute({
      ...admin,
      method: 'GET',
      path: '/admin/usage',
      operationId: 'adminUsage',
      summary: 'Lookups per account and month, unflushed counts included',
      query: UsageQuery,
      responses: { 200: { description: 'Usage rows.', schema: UsageBody } },
    }).handle(async ({ query }) => ({ status: 200, body: await usageReport(ctx, query) })),
  ]
}
