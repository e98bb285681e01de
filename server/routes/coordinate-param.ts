// A latitude or longitude query parameter: a decimal number of degrees within ±limit.
import * as z from 'zod'

const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/

export const coordinate = (name: string, limit: number) =>
  z
    .string()
    .trim()
    .regex(DECIMAL, `${name} must be a decimal number of degrees`)
    .transform(Number)
    .pipe(z.number().min(-limit).max(limit))
    .optional()
    .describe(`${name} in decimal degrees (-${limit}..${limit}); coordinates mode needs lat and lng`)
