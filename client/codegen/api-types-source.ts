// The text of client/api-types.ts: the API's request and response types, generated from the zod
// schemas the server validates and describes in /openapi.json with. The client imports only the
// generated file, so its package holds no server code; the package build regenerates it, and
// test/client-package.test.ts fails when the file in the repository is not what this writes. An
// object schema made by `.extend` of a generated type is written as that type `&` its added fields.
import * as z from 'zod'
import { ValidationIssue } from '../../server/base/errors.ts'
import { ChangesBody } from '../../server/changes/changes-feed.ts'
import { FullLookupBody, SimpleLookupBody } from '../../server/lookup/tax-response.ts'
import { NexusHealthBody } from '../../server/portability/nexus/nexus-health-body.ts'
import { NativeOrderTaxBody } from '../../server/portability/order-tax-native.ts'
import { OrderView } from '../../server/portability/order-view.ts'
import { ReturnsBody } from '../../server/portability/returns/returns-body.ts'
import { TransactionInput } from '../../server/portability/transaction-input.ts'
import { AccountBody } from '../../server/routes/account.ts'
import { FreshnessBody } from '../../server/routes/freshness.ts'
import { HealthBody } from '../../server/routes/health.ts'
import { BackfillReportBody } from '../../server/routes/portability-backfill.ts'
import { nexusListRoute, nexusSetRoute } from '../../server/routes/portability-nexus.ts'
import { createOrderRoute } from '../../server/routes/portability-orders.ts'
import { OrderTaxInput } from '../../server/order-tax/order-tax-input.ts'
import { WebhookEvent } from '../../server/webhooks/announcement.ts'
import { WebhookPing } from '../../server/webhooks/requested-delivery.ts'
import { AttemptView, CreatedWebhook, DeliveryDetailView, DeliveryView, WebhookChanges, WebhookInput, WebhookView } from '../../server/routes/webhooks.ts'
import { TypeDeclarations } from './json-schema-types.ts'

/** Each generated type: its name, its schema, and whether it is what the server sends (output) or takes (input). */
const GENERATED: [name: string, schema: z.ZodType, io: 'input' | 'output'][] = [
  ['TaxLookupSimple', SimpleLookupBody, 'output'],
  ['TaxLookupFull', FullLookupBody, 'output'],
  ['FreshnessEnvelope', FreshnessBody, 'output'],
  ['Health', HealthBody, 'output'],
  ['Account', AccountBody, 'output'],
  ['BackfillReport', BackfillReportBody, 'output'],
  ['NexusHealth', NexusHealthBody, 'output'],
  ['NexusRegistrations', nexusListRoute.responses[200].schema!, 'output'],
  ['NexusRegistrationsInput', nexusSetRoute.body!, 'input'],
  ['Order', OrderView, 'output'],
  ['SavedOrder', createOrderRoute.responses[201].schema!, 'output'],
  ['TransactionInput', TransactionInput, 'input'],
  ['OrderTax', NativeOrderTaxBody, 'output'],
  ['OrderTaxInput', OrderTaxInput, 'input'],
  ['RateChanges', ChangesBody, 'output'],
  ['SalesTaxReturn', ReturnsBody, 'output'],
  ['Webhook', WebhookView, 'output'],
  ['CreatedWebhook', CreatedWebhook, 'output'],
  ['WebhookInput', WebhookInput, 'input'],
  ['WebhookChanges', WebhookChanges, 'input'],
  ['WebhookDelivery', DeliveryView, 'output'],
  ['WebhookAttempt', AttemptView, 'output'],
  ['WebhookDeliveryDetail', DeliveryDetailView, 'output'],
  ['WebhookRateChanges', WebhookEvent, 'output'],
  ['WebhookPing', WebhookPing, 'output'],
  ['ValidationIssue', ValidationIssue, 'output'],
]

const HEADER = `// Generated from the server's zod schemas by client/codegen/api-types-source.ts: do not edit.
// Regenerate with \`npm run build\` in client/ (test/client-package.test.ts fails when it is stale).
`

export function apiTypesSource(): string {
  const declarations = new TypeDeclarations()
  for (const [name, schema, io] of GENERATED) {
    const override = ({ zodSchema, jsonSchema }: { zodSchema: unknown; jsonSchema: Record<string, unknown> }) => {
      const base = extendedType(zodSchema, io)
      if (base) writeAsExtension(jsonSchema, base)
    }
    declarations.declare(name, z.toJSONSchema(schema, { io, unrepresentable: 'any', override }) as Record<string, unknown>)
  }
  return `${HEADER}\n${declarations.source()}`
}

type Extended = { name: string; fields: string[] }

/**
 * The generated type an object schema extends (`Base.extend({...})`): a generated object type of the
 * same io each of whose fields the schema holds as the very same schema, with fewer fields than it;
 * of several, the one with the most fields.
 */
function extendedType(schema: unknown, io: 'input' | 'output'): Extended | null {
  if (!(schema instanceof z.ZodObject)) return null
  const shape = schema.shape as Record<string, unknown>
  let found: Extended | null = null
  for (const [name, candidate, candidateIo] of GENERATED) {
    if (candidateIo !== io || candidate === schema || !(candidate instanceof z.ZodObject)) continue
    const fields = Object.keys(candidate.shape)
    if (fields.length >= Object.keys(shape).length || fields.some((field) => shape[field] !== candidate.shape[field])) continue
    if (!found || fields.length > found.fields.length) found = { name, fields }
  }
  return found
}

/** Rewrites an object's JSON Schema, in place, as `base` and the fields it adds (`allOf`, a $ref to the base's declaration). */
function writeAsExtension(json: Record<string, unknown>, base: Extended): void {
  const { type, properties, required, additionalProperties, ...rest } = json
  const added = (field: string) => !base.fields.includes(field)
  const own = {
    type,
    properties: Object.fromEntries(Object.entries((properties ?? {}) as Record<string, unknown>).filter(([field]) => added(field))),
    required: ((required ?? []) as string[]).filter(added),
    ...(additionalProperties === undefined ? {} : { additionalProperties }),
  }
  for (const key of Object.keys(json)) delete json[key]
  Object.assign(json, rest, { allOf: [{ $ref: `#/$defs/${base.name}` }, own] })
}
