// `make refresh`: build and publish a new snapshot. Exits non-zero only when nothing could be
// published; a run that fails as a whole republishes the snapshot in service with its states
// marked failed (snapshot-contract/failed-run.ts), so freshness shows it.
import { publishFailedRun } from '../snapshot-contract/failed-run.ts'
import { refresh } from './run/refresh.ts'
import { summaryTable, terminalReporter } from './run/reporter.ts'
import { readPipelineSettings, SettingsError, type PipelineSettings } from './settings.ts'

let settings: PipelineSettings | null = null
try {
  settings = readPipelineSettings()
  const started = performance.now()
  const result = await refresh(settings, terminalReporter())
  process.stderr.write(`\n${summaryTable(result.states, settings.now)}\n\n`)
  const seconds = ((performance.now() - started) / 1000).toFixed(1)
  if (!result.manifest) {
    process.stderr.write(`nothing published: ${result.reason}\n`)
    process.exitCode = 1
  } else {
    const peakMb = Math.round(process.resourceUsage().maxRSS / 1024)
    process.stderr.write(`published snapshot ${result.manifest.snapshot} to ${settings.artifactsDir} in ${seconds}s, peak RSS ${peakMb} MB\n`)
  }
} catch (error) {
  process.stderr.write(`${error instanceof SettingsError ? error.message : (error as Error).stack}\n`)
  process.exitCode = 1
  if (settings) await recordFailure(settings, (error as Error).message)
}

async function recordFailure(settings: PipelineSettings, reason: string) {
  try {
    const published = await publishFailedRun(settings.artifactsDir, { reason, now: settings.now, states: settings.states })
    if (published) process.stderr.write(`refresh failed: ${reason}\nrepublished snapshot ${published.snapshot} with the refreshed states marked failed; data unchanged\n`)
  } catch (error) {
    process.stderr.write(`refresh failed, and recording the failure failed too: ${(error as Error).message}\n`)
  }
}
