// Shapes shared by the address parser, the normalization repairs and their callers.

/** What the caller knows about a ZIP; null when the ZIP is unknown. */
export type ZipFacts = (zip5: string) => { state: string; straddles: boolean; states: string[] } | null

export type Confidence = 'unambiguous' | 'heuristic'

/** One applied repair (api.md "Normalization"). `raw`/`normalized` are the whole field value before and after it. */
export type NormalizationEntry = {
  rule_id: string
  field: string
  raw: string
  normalized: string
  confidence: Confidence
  detail: Record<string, unknown>
}

export type NormalizedInput = {
  /** "123 MAIN ST" / "PO BOX 5", upper case, whitespace collapsed; null when no street was given */
  street: string | null
  /** as written, cleaned by normalizePlaceName ("SPRINGFIELD"); never checked against a gazetteer */
  city: string | null
  /** 2-letter code finally served (the ZIP's state when state_derived_from_zip applies) */
  state: string | null
  zip5: string | null
  zip4: string | null
  /** one entry per applied repair, in the order applied */
  applied: NormalizationEntry[]
  /** one human-readable line per applied repair, aligned with `applied` */
  warnings: string[]
}

/** `pathState` absent: the caller names no state apart from the address (GET /v1/portability/rates). */
export type AddressInput = { pathState?: string; address?: string; city?: string; zip?: string }

export type FieldError = { ok: false; field: string; reason: string }

export type NormalizeResult = { ok: true; value: NormalizedInput } | FieldError
