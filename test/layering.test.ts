// The floors written down in .dependency-cruiser.cjs hold for the whole code base: no module
// imports from a floor above its own, the client and the console's browser code import nothing of
// the server's, and no import cycle exists. The pipeline's floors are also held against a small
// tree made to break each of them, so a rule whose path no longer matches anything cannot pass unseen.
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { execa } from 'execa'
import { expect, it } from 'vitest'
import { PROJECT_ROOT } from './support/shared.ts'
import { tempDir } from './support/temp-dirs.ts'

const depcruise = path.join(PROJECT_ROOT, 'node_modules/.bin/depcruise')
const config = path.join(PROJECT_ROOT, '.dependency-cruiser.cjs')

it('no module imports from a floor above it, and no import cycle exists', async () => {
  const run = await execa(depcruise, ['--output-type', 'err', 'snapshot-contract', 'sources', 'pipeline', 'server', 'client', 'console'], { cwd: PROJECT_ROOT, reject: false })
  expect(run.stdout + run.stderr).toContain('no dependency violations found')
  expect(run.exitCode).toBe(0)
})

it('the pipeline floors (fetch < feed parts < feed kinds < run < entry points) and feed kinds kept apart are enforced', async () => {
  const root = await tempDir('layering')
  const modules: Record<string, string[]> = {
    'pipeline/settings.ts': [],
    'pipeline/main.ts': ['./settings.ts'],
    'pipeline/fetch/listing.ts': ['../settings.ts'],
    'pipeline/fetch/download.ts': ['../settings.ts', '../feeds/adapter-table.ts'],
    'pipeline/feeds/feed-part.ts': ['../fetch/listing.ts', './co-dor/links.ts'],
    'pipeline/feeds/adapter-table.ts': ['./co-dor/adapter.ts'],
    'pipeline/feeds/co-dor/adapter.ts': ['./links.ts', '../feed-part.ts', '../mo-dor/links.ts'],
    'pipeline/feeds/co-dor/links.ts': [],
    'pipeline/feeds/mo-dor/links.ts': ['../../run/report.ts'],
    'pipeline/run/refresh.ts': ['../feeds/adapter-table.ts', './report.ts'],
    'pipeline/run/report.ts': ['../main.ts'],
  }
  for (const [file, imports] of Object.entries(modules)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true })
    await writeFile(path.join(root, file), `${imports.map((from, i) => `import * as m${i} from '${from}'`).join('\n')}\nexport const loaded = [${imports.map((_, i) => `m${i}`).join(', ')}]\n`)
  }
  await writeFile(path.join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', allowImportingTsExtensions: true, noEmit: true } }))
  const run = await execa(depcruise, ['--config', config, '--output-type', 'json', 'pipeline'], { cwd: root, reject: false })
  const violations = (JSON.parse(run.stdout) as { summary: { violations: { rule: { name: string }; from: string; to: string }[] } }).summary.violations
  expect(violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`).sort()).toEqual([
    'feed-kinds-apart: pipeline/feeds/co-dor/adapter.ts → pipeline/feeds/mo-dor/links.ts',
    'no-upward-from-pipeline-feed-kinds: pipeline/feeds/mo-dor/links.ts → pipeline/run/report.ts',
    'no-upward-from-pipeline-feed-parts: pipeline/feeds/feed-part.ts → pipeline/feeds/co-dor/links.ts',
    'no-upward-from-pipeline-fetch: pipeline/fetch/download.ts → pipeline/feeds/adapter-table.ts',
    'no-upward-from-pipeline-run: pipeline/run/report.ts → pipeline/main.ts',
  ])
})
