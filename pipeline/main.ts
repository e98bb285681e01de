// `make refresh`: build and publish a new snapshot. The exit status (snapshot-contract/refresh-exit.ts)
// says whether it published and whether every state asked for has data; a run that fails as a
// whole republishes the snapshot in service with its states marked failed
// (snapshot-contract/failed-run.ts), so freshness shows it.
import { publishFailedRun } from '../snapshot-contract/failed-run.ts'
import { REFRESH_EXIT } from '../snapshot-contract/refresh-exit.ts'
import { refresh } from './run/refresh.ts'
import { hasData, summaryTable, terminalReporter } from './run/reporter.ts'
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
    process.exitCode = REFRESH_EXIT.failed
  } else {
    const peakMb = Math.round(process.resourceUsage().maxRSS / 1024)
    process.stderr.write(`published snapshot ${result.manifest.snapshot} to ${settings.artifactsDir} in ${seconds}s, peak RSS ${peakMb} MB\n`)
    const asked = settings.states
    const empty = result.manifest.states.filter((s) => !hasData(s) && (!asked || asked.includes(s.code))).map((s) => s.code)
    if (empty.length) {
      process.stderr.write(`not every state has data: ${empty.join(' ')} (exit status ${REFRESH_EXIT.statesWithoutData})\n`)
      process.exitCode = REFRESH_EXIT.statesWithoutData
    }
  }
} catch (error) {
  process.stderr.write(`${error instanceof SettingsError ? error.message : (error as Error).stack}\n`)
  process.exitCode = REFRESH_EXIT.failed
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
