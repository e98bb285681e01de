// Embedded US address parser and the normalization repairs of api.md "Normalization" for GET /v1/tax/{state}. Pure: no I/O.
export type { AddressInput, Confidence, FieldError, NormalizationEntry, NormalizedInput, NormalizeResult, ZipFacts } from './types.ts'
export { normalizeAddressInput } from './normalize.ts'
export { NORMALIZATION_RULES, RULE, type NormalizationRule, type RuleId } from './rules.ts'
export { strictCorrection, type StrictCorrection } from './strict-correction.ts'
export { STATE_CODES, STATE_NAMES, matchState, type StateName } from './state-names.ts'
