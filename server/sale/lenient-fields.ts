// The field types integrations send, checked for types only: numbers or numeric strings for money
// and ZIPs, `false` or null for absent text. What the values mean is read afterwards
// (field-values.ts, money.ts).
import * as z from 'zod'

export const NumberLike = z.union([z.string(), z.number()])
export const Money = NumberLike.optional().describe('a decimal string or number, e.g. "19.99"; at most 4 decimal places')
/** Free text; `false`, `true` and null count as absent (plugins send `to_street: false`). */
export const Text = z.union([z.string(), z.number(), z.boolean(), z.null()]).optional()
