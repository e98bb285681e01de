// Settings of the portability endpoints, from the environment, validated once at start-up.
import * as z from 'zod'
import { UNKNOWN_CODE_POLICIES, type UnknownCodePolicy } from '../order-tax/product-taxability.ts'
import { DEFAULT_NEXUS_BAND, parseBand } from './nexus/nexus-band.ts'

export const PortabilityEnv = z.object({
  TAXATLAS_NEXUS_BAND: z
    .string()
    .default(DEFAULT_NEXUS_BAND)
    .superRefine((text, ctx) => {
      const band = parseBand(text)
      if (!band.ok) ctx.addIssue({ code: 'custom', message: band.reason })
    })
    .describe('nexus warning band: a state is "approaching" within this fraction of a threshold'),
  TAXATLAS_BACKFILL_JSON_LIMIT: z.coerce
    .number()
    .int()
    .positive()
    .default(16 * 1024 * 1024)
    .describe('largest backfill body sent as one JSON array, bytes (NDJSON streams have no limit)'),
  TAXATLAS_BACKFILL_IDLE_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(60_000)
    .describe('a streamed (NDJSON) backfill is cut when no byte of it arrives for this long; it has no overall time limit'),
  TAXATLAS_UNKNOWN_TAX_CODES: z
    .enum(UNKNOWN_CODE_POLICIES)
    .default('reject')
    .describe(
      'order tax: a product_tax_code the category table does not know, or does not model in the state, is refused with 400 (reject) or taxed as general goods with a note (general)',
    ),
})

export type PortabilitySettings = {
  /** warning band in basis points (2500 = 25%) */
  nexusBandBasisPoints: number
  backfillJsonLimit: number
  backfillIdleTimeoutMs: number
  /** order tax: what a product_tax_code the table cannot answer gets */
  unknownTaxCodes: UnknownCodePolicy
}

export const portabilitySettingsOf = (env: z.output<typeof PortabilityEnv>): PortabilitySettings => ({
  nexusBandBasisPoints: (parseBand(env.TAXATLAS_NEXUS_BAND) as { basisPoints: number }).basisPoints,
  backfillJsonLimit: env.TAXATLAS_BACKFILL_JSON_LIMIT,
  backfillIdleTimeoutMs: env.TAXATLAS_BACKFILL_IDLE_TIMEOUT_MS,
  unknownTaxCodes: env.TAXATLAS_UNKNOWN_TAX_CODES,
})

/** Fixed limits, documented with the endpoints. */
export const BACKFILL_LIMITS = {
  /** valid rows handed to the store's bulk writer at a time: few enough that they are encoded and gone before the collector's young generation would move them to the old one */
  batchRows: 1_000,
  /** rejected rows returned with their reasons (all are counted) */
  rejectedRowsKept: 1_000,
  /** longest NDJSON line, bytes */
  maxLineBytes: 64 * 1024,
  /** how far back a backfilled transaction may be dated */
  windowMonths: 24,
} as const
