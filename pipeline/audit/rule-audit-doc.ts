// docs/audit.md, written by `make audit`: the agreement table and each default rule's effect, with
// the rules they are judged by, so the document always shows the figures of the last audit run.
import { AGGREGATOR_RULES, DEFAULT_RULE_SETTINGS } from '../feeds/aggregator-defaults.ts'
import { NOISE_SHARE, NOISE_ZIPS, RULE_FIGURE_GRID } from './rule-audit.ts'

export type RuleAuditTables = {
  snapshot: string
  asOf: string
  /** header row first, as printed */
  summary: (string | number)[][]
  effects: string[][]
  heldOut: string[][]
}

const markdownTable = ([header, ...rows]: (string | number)[][]) =>
  [`| ${header!.join(' | ')} |`, `|${header!.map(() => '---').join('|')}|`, ...rows.map((row) => `| ${row.join(' | ')} |`)].join('\n')

export function ruleAuditMarkdown(tables: RuleAuditTables): string {
  return `# Audit of the default answers

Written by \`make audit\` (\`pipeline/audit-main.ts\`); do not edit by hand. Snapshot \`${tables.snapshot}\`,
official rates as of ${tables.asOf}, against the newest aggregator drop of every state served from an
official file. The method is in [decisions.md](decisions.md#defaults-judged-by-the-audit).

## Agreement with the official rates

\`aggregator = official\`: the aggregator's figure as published; \`default = official\`: the figure
after the service's choice rules; then the disagreements by class.

${markdownTable(tables.summary)}

## Each rule, state by state

Agreement with the rule in force and without it. The aggregator rules (${AGGREGATOR_RULES.map((rule) => `\`${rule}\``).join(', ')}) are held to the official rate; the official
feeds' place choice (\`usps_city_preferred\`: the place the ZIP's USPS city names over the one holding
its Census point) cannot be held to the rate it chooses, so it is held to the aggregator's figure. A
net change counts beyond noise from ${NOISE_ZIPS} ZIPs and ${(NOISE_SHARE * 100).toFixed(1)}% of the state's audited ZIPs; a rule
that lowers agreement in any state beyond noise is narrowed or dropped.

${markdownTable(tables.effects)}

## The rules' figures, chosen without the state they are scored on

For each official state, the figures the aggregator rules read (rows that must agree: ${RULE_FIGURE_GRID.minAgreeing.join(', ')};
neighbour distance: ${RULE_FIGURE_GRID.neighbourKm.join(', ')} km) that agree best on the *other* official states, and the held-out
state's agreement with them beside the shipped figures (${DEFAULT_RULE_SETTINGS.minAgreeing} row${DEFAULT_RULE_SETTINGS.minAgreeing === 1 ? '' : 's'}, ${DEFAULT_RULE_SETTINGS.neighbourKm} km).

${markdownTable(tables.heldOut)}
`
}
