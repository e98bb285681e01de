// Request ids (`X-Request-Id`, the errors' `support_reference`): a random prefix drawn once per
// process, then a counter. Unique across processes and restarts without drawing randomness and
// formatting a UUID per request, which cost more than answering a cached lookup's plan check.
import { randomBytes } from 'node:crypto'

const PREFIX = randomBytes(6).toString('hex')
let issued = 0

/** `3f9a0c1b2d4e-0`, `3f9a0c1b2d4e-1`, … `3f9a0c1b2d4e-zz` (the counter in base 36). */
export const newRequestId = (): string => `${PREFIX}-${(issued++).toString(36)}`
