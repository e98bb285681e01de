// The nexus health response as a schema, for /openapi.json and the route's reply type.
import * as z from 'zod'
import { NexusCombination } from '../../../sources/state-facts.ts'

const Money = z.string().describe('decimal string, e.g. "81234.50"')

export const StateHealthBody = z
  .object({
    state: z.string(),
    name: z.string(),
    order_total: Money.describe('counted orders minus counted refunds in the window'),
    transaction_count: z.number().int().describe('counted orders in the window (refunds do not add)'),
    not_counted_total: Money.describe("what the state's rule leaves out (exempt or marketplace sales), net of refunds"),
    not_counted_count: z.number().int(),
    dollar_threshold: Money.nullable(),
    transaction_threshold: z.number().int().nullable(),
    threshold_combination: NexusCombination,
    measurement_period: z.string().describe("the state's own look-back, as recorded (the totals here are always the rolling 12 months)"),
    sales_counted: z.string().describe('which sales the state counts, as recorded'),
    marketplace_sales_counted: z.string().describe('whether marketplace-facilitated sales count, as recorded'),
    counting: z.object({
      exempt_sales: z.enum(['counted', 'resale_excluded', 'excluded']),
      marketplace_sales: z.enum(['counted', 'excluded']),
    }),
    threshold_share: z.object({ dollars: z.number().nullable(), transactions: z.number().nullable() }).describe('total and count as fractions of the thresholds (4 decimals, floored)'),
    status: z.enum(['under_threshold', 'approaching', 'exceeded', 'no_threshold']),
    near_threshold: z.boolean(),
    registered: z.boolean().describe('listed in your registration list (PUT /v1/portability/nexus)'),
    registered_since: z.string().nullable(),
  })
  .meta({ id: 'StateNexusHealth' })

export const NexusHealthBody = z
  .object({
    as_of: z.string().describe('today, UTC'),
    window: z.object({ from: z.string(), to: z.string(), basis: z.literal('rolling_12_months') }),
    band: z.string().describe('the warning band used, e.g. "0.25"'),
    states: z.array(StateHealthBody),
    alerts: z
      .array(z.object({ state: z.string(), name: z.string(), status: z.literal('approaching'), message: z.string() }))
      .describe('the states in the warning band'),
    exceeded_unregistered: z.array(z.string()).describe('states whose threshold is met but that are not in your registration list'),
  })
  .meta({ id: 'NexusHealth' })
