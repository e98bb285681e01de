// The refresh workflow's release step: decides whether the snapshot a run published is released
// (release-decision.ts), writes `release=true|false` and `snapshot=<id>` to $GITHUB_OUTPUT and the
// reason to $GITHUB_STEP_SUMMARY (each when set), and prints the reason.
//
//   tsx pipeline/release-main.ts --outcome success|failure --artifacts <dir> [--previous-manifest <file>] [--log <file>]
import { appendFile, readFile } from 'node:fs/promises'
import path from 'node:path'
import { parseArgs } from 'node:util'
import * as z from 'zod'
import { Manifest } from '../snapshot-contract/manifest.ts'
import { readCurrentId, snapshotDir } from '../snapshot-contract/snapshot-store.ts'
import { decideRelease } from './run/release-decision.ts'

const Args = z.object({
  outcome: z.enum(['success', 'failure']),
  artifacts: z.string().min(1),
  'previous-manifest': z.string().min(1).optional(),
  log: z.string().min(1).optional(),
})
const GithubEnv = z.object({ GITHUB_OUTPUT: z.string().min(1).optional(), GITHUB_STEP_SUMMARY: z.string().min(1).optional() })

const readManifest = async (file: string) => Manifest.parse(JSON.parse(await readFile(file, 'utf8')))
const readIfThere = (file: string | undefined) => (file ? readFile(file, 'utf8').catch(() => null) : Promise.resolve(null))

try {
  const { values } = parseArgs({ options: { outcome: { type: 'string' }, artifacts: { type: 'string' }, 'previous-manifest': { type: 'string' }, log: { type: 'string' } } })
  const args = Args.parse(values)
  const github = GithubEnv.parse(process.env)
  const id = await readCurrentId(args.artifacts)
  const current = id ? await readManifest(path.join(snapshotDir(args.artifacts, id), 'manifest.json')) : null
  const previousText = await readIfThere(args['previous-manifest'])
  const previous = previousText ? Manifest.parse(JSON.parse(previousText)) : null
  const decision = decideRelease({ outcome: args.outcome, current, previous, log: (await readIfThere(args.log)) ?? '' })
  if (github.GITHUB_OUTPUT) await appendFile(github.GITHUB_OUTPUT, `release=${decision.release}\nsnapshot=${decision.snapshot ?? ''}\n`)
  if (github.GITHUB_STEP_SUMMARY) await appendFile(github.GITHUB_STEP_SUMMARY, `${decision.summary}\n`)
  process.stdout.write(`${decision.summary}\n`)
} catch (error) {
  process.stderr.write(`release decision failed: ${(error as Error).message}\n`)
  process.exitCode = 1
}
