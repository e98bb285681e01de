// The documented normalization table (api.md "Normalization"), in the order the repairs are applied.
import type { Confidence } from './types.ts'

export const RULE = {
  whitespace: 'whitespace_collapsed',
  zip4Suffix: 'zip4_suffix_repaired',
  countryToken: 'country_token_removed',
  stateName: 'state_name_to_code',
  streetDuplicate: 'street_fragment_deduplicated',
  stateFromZip: 'state_derived_from_zip',
} as const

export type RuleId = (typeof RULE)[keyof typeof RULE]

export type NormalizationRule = { rule_id: RuleId; detected: string; served_as: string; confidence: Confidence }

export const NORMALIZATION_RULES: readonly NormalizationRule[] = [
  {
    rule_id: RULE.whitespace,
    detected: 'redundant whitespace: repeated spaces, tabs or other whitespace, spaces before a comma, leading or trailing spaces',
    served_as: 'collapsed to single spaces, trimmed',
    confidence: 'unambiguous',
  },
  {
    rule_id: RULE.zip4Suffix,
    detected: 'doubled, mismatched or tripled ZIP+4 suffix (98101-1234-1234, 98101-1234-5678)',
    served_as: 'a single ZIP+4 keeping the first +4; the entry is unambiguous when the +4 was repeated identically, heuristic when the copies differ',
    confidence: 'heuristic',
  },
  {
    rule_id: RULE.countryToken,
    detected: 'trailing country token after the ZIP or state (USA, US, U.S.A., United States, United States of America)',
    served_as: 'token removed',
    confidence: 'unambiguous',
  },
  {
    rule_id: RULE.stateName,
    detected: 'full state name or alias (Illinois, Calif., Wash DC, N. Carolina), in the address or the path',
    served_as: '2-letter state code',
    confidence: 'unambiguous',
  },
  {
    rule_id: RULE.streetDuplicate,
    detected: 'street fragment repeated back to back (123 Main St 123 Main St, 123 Main St Main St)',
    served_as: 'one copy',
    confidence: 'heuristic',
  },
  {
    rule_id: RULE.stateFromZip,
    detected: 'path state or state in the address unusable (N, false, -, M, XX, empty, not a state) or different from the state of a ZIP that lies in one state only',
    served_as: "the ZIP's state; a ZIP that straddles a state line is left as-is",
    confidence: 'heuristic',
  },
]
