// `make refresh`: build and publish a new snapshot. Exits non-zero only when nothing could be published.
import { refresh } from './refresh.ts'
import { summaryTable, terminalReporter } from './reporter.ts'
import { readPipelineSettings, SettingsError } from './settings.ts'

try {
  const settings = readPipelineSettings()
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
}
