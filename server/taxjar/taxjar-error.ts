// Errors as TaxJar sends them, so its clients raise their own error type (the Node client throws
// TaxjarError only for a JSON body with both `error` and `detail`): `error` is the status's
// reason phrase, `detail` our message (for a validation error, each problem in turn).
import { STATUS_CODES } from 'node:http'
import * as z from 'zod'
import type { ErrorFormat, HttpError } from '../base/errors.ts'

export const TaxjarErrorBody = z
  .object({
    error: z.string().describe('the HTTP reason phrase, e.g. "Unprocessable Entity"'),
    detail: z.string().describe('what went wrong, in words'),
    status: z.number().int(),
  })
  .meta({ id: 'TaxjarError', description: 'Every error under /taxjar has this shape (TaxJar API v2).' })

export function taxjarErrorBody(error: HttpError): z.infer<typeof TaxjarErrorBody> {
  const problems = (error.body as { detail?: { loc: (string | number)[]; msg: string }[] }).detail
  const detail = Array.isArray(problems) && problems.length > 0 ? problems.map(describeProblem).join('; ') : error.message
  return { error: STATUS_CODES[error.status] ?? 'Error', detail, status: error.status }
}

/**
 * "to_zip 30301 is not used within to_state CT…" already names its field (a nested one gets the
 * path to it: "line_items.2.unit_price: …"); a bare zod message gets the field in front.
 */
function describeProblem(problem: { loc: (string | number)[]; msg: string }): string {
  const path = problem.loc.filter((part) => part !== 'body' && part !== 'query' && part !== 'path').map(String)
  if (path.length === 0) return problem.msg
  const parent = path.slice(0, -1).join('.')
  if (problem.msg.startsWith(path.at(-1)!)) return parent ? `${parent}.${problem.msg}` : problem.msg
  return `${path.join('.')}: ${problem.msg}`
}

/** The error format of every /taxjar route (and of unmatched paths under /taxjar). */
export const TAXJAR_ERRORS: ErrorFormat = { body: taxjarErrorBody, schema: TaxjarErrorBody }
