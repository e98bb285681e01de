// Whether a refresh run's snapshot becomes a new release: only when the run succeeded and the data
// it publishes differs from the latest release's. The snapshot id changes on every run, so the
// comparison is of content: the hashes of the index files and history layers the manifest records.
import { createHash } from 'node:crypto'
import type { Manifest } from '../../snapshot-contract/manifest.ts'

export type RefreshOutcome = 'success' | 'failure'

export type ReleaseDecision = {
  release: boolean
  /** the snapshot in CURRENT after the run, if any */
  snapshot: string | null
  contentHash: string | null
  /** Markdown for the job summary: the decision, why, and the states by status */
  summary: string
}

/** sha256 over what a deployment serves: the index files and history layers, by role, not by snapshot id. */
export function snapshotContentHash(manifest: Manifest): string {
  const parts = [
    `format ${manifest.format_version}`,
    ...manifest.files.map((file) => `file ${file.name} ${file.sha256}`).sort(),
    ...manifest.history.map((layer) => `history ${layer.feed} ${layer.edition} ${layer.file.sha256}`).sort(),
  ]
  return createHash('sha256').update(parts.join('\n')).digest('hex')
}

/** Lines of the refresh's output that say why it failed (pipeline/main.ts writes them). */
const FAILURE_LINE = /^(nothing published|refresh failed|invalid settings|republished snapshot|Error\b|\s+TAXATLAS_|\s+[A-Z_]*PROXY)/

export function decideRelease(input: { outcome: RefreshOutcome; current: Manifest | null; previous: Manifest | null; log: string }): ReleaseDecision {
  const { outcome, current, previous } = input
  const snapshot = current?.snapshot ?? null
  const contentHash = current ? snapshotContentHash(current) : null
  const decided = (release: boolean, why: string[]): ReleaseDecision => ({
    release,
    snapshot,
    contentHash,
    summary: [`## taxatlas refresh: ${release ? `release snapshot-${snapshot}` : 'no release'}`, '', ...why, '', ...statesTable(current)].join('\n'),
  })
  if (outcome === 'failure') {
    const reasons = input.log.split('\n').filter((line) => FAILURE_LINE.test(line))
    const tail = reasons.length ? reasons : input.log.trimEnd().split('\n').slice(-15)
    return decided(false, ['The refresh failed, so no release is cut; the latest release stays the one to deploy.', '', '```', ...tail, '```'])
  }
  if (!current || !contentHash) return decided(false, ['The refresh reported success but published no snapshot (no `CURRENT`): no release.'])
  if (previous && snapshotContentHash(previous) === contentHash) {
    return decided(false, [`Snapshot ${snapshot} serves the same data as the latest release (snapshot ${previous.snapshot}, content ${contentHash.slice(0, 12)}): no release.`])
  }
  const against = previous ? `the latest release (snapshot ${previous.snapshot}) serves other data` : 'there is no earlier release'
  return decided(true, [`Snapshot ${snapshot} (content ${contentHash.slice(0, 12)}) is released: ${against}.`])
}

function statesTable(manifest: Manifest | null): string[] {
  if (!manifest) return []
  const byStatus = new Map<string, string[]>()
  for (const state of manifest.states) byStatus.set(state.status, [...(byStatus.get(state.status) ?? []), state.code])
  const rows = [...byStatus].sort(([a], [b]) => a.localeCompare(b)).map(([status, codes]) => `| ${status} | ${codes.length} | ${codes.join(' ')} |`)
  return ['| status | states | codes |', '|---|---|---|', ...rows]
}
