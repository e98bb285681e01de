// The text of client/api-types.ts: the API's request and response types, generated from the zod
// schemas the server validates and describes in /openapi.json with. The client imports only the
// generated file, so its package holds no server code; the package build regenerates it, and
// test/client-package.test.ts fails when the file in the repository is not what this writes.
import { z } from 'zod'
import { FreshnessEnvelope } from '../../snapshot-contract/manifest.ts'
import { ValidationIssue } from '../../server/base/errors.ts'
import { ChangesBody } from '../../server/changes/changes-feed.ts'
import { FullLookupBody, SimpleLookupBody } from '../../server/lookup/tax-response.ts'
import { NexusHealthBody } from '../../server/portability/nexus/nexus-health-body.ts'
import { NativeOrderTaxBody } from '../../server/portability/order-tax-native.ts'
import { OrderView } from '../../server/portability/order-view.ts'
import { TransactionInput } from '../../server/portability/transaction-input.ts'
import { AccountBody } from '../../server/routes/account.ts'
import { HealthBody } from '../../server/routes/health.ts'
import { BackfillReportBody } from '../../server/routes/portability-backfill.ts'
import { nexusListRoute, nexusSetRoute } from '../../server/routes/portability-nexus.ts'
import { createOrderRoute } from '../../server/routes/portability-orders.ts'
import { OrderTaxInput } from '../../server/order-tax/order-tax-input.ts'
import { WebhookEvent } from '../../server/webhooks/announcement.ts'
import { CreatedWebhook, DeliveryView, WebhookChanges, WebhookInput, WebhookView } from '../../server/routes/webhooks.ts'
import { TypeDeclarations } from './json-schema-types.ts'

/** Each generated type: its name, its schema, and whether it is what the server sends (output) or takes (input). */
const GENERATED: [name: string, schema: z.ZodType, io: 'input' | 'output'][] = [
  ['TaxLookupSimple', SimpleLookupBody, 'output'],
  ['TaxLookupFull', FullLookupBody, 'output'],
  ['FreshnessEnvelope', FreshnessEnvelope, 'output'],
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
  ['Webhook', WebhookView, 'output'],
  ['CreatedWebhook', CreatedWebhook, 'output'],
  ['WebhookInput', WebhookInput, 'input'],
  ['WebhookChanges', WebhookChanges, 'input'],
  ['WebhookDelivery', DeliveryView, 'output'],
  ['WebhookRateChanges', WebhookEvent, 'output'],
  ['ValidationIssue', ValidationIssue, 'output'],
]

const HEADER = `// Generated from the server's zod schemas by client/codegen/api-types-source.ts: do not edit.
// Regenerate with \`npm run build\` in client/ (test/client-package.test.ts fails when it is stale).
`

export function apiTypesSource(): string {
  const declarations = new TypeDeclarations()
  for (const [name, schema, io] of GENERATED) {
    declarations.declare(name, z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>)
  }
  return `${HEADER}\n${declarations.source()}`
}
