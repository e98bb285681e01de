// Applied repairs collected per field and handed out in the table's order (rule first, then field).
import { NORMALIZATION_RULES, type RuleId } from './rules.ts'
import type { InputField } from './repair-messages.ts'
import type { Confidence, NormalizationEntry } from './types.ts'

const FIELD_ORDER: readonly InputField[] = ['state', 'address', 'city', 'zip']
const RULE_ORDER: readonly RuleId[] = NORMALIZATION_RULES.map((r) => r.rule_id)

export type Repair = {
  rule: RuleId
  field: InputField
  raw: string
  normalized: string
  confidence: Confidence
  detail: Record<string, unknown>
  warning: string
}

export class RepairLog {
  private readonly repairs: Repair[] = []

  add(repair: Repair): void {
    this.repairs.push(repair)
  }

  /** Each field's repairs were logged in rule order, so sorting keeps every field's raw → normalized chain intact. */
  ordered(): { applied: NormalizationEntry[]; warnings: string[] } {
    const rank = (r: Repair) => RULE_ORDER.indexOf(r.rule) * FIELD_ORDER.length + FIELD_ORDER.indexOf(r.field)
    const sorted = [...this.repairs].sort((a, b) => rank(a) - rank(b))
    return {
      applied: sorted.map(({ rule, field, raw, normalized, confidence, detail }) => ({ rule_id: rule, field, raw, normalized, confidence, detail })),
      warnings: sorted.map((r) => r.warning),
    }
  }
}
