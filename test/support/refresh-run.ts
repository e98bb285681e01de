// Runs the real pipeline into temporary directories, for tests: in the test's process, or as its
// own process the way `make refresh` runs it.
import { execa } from 'execa'
import { refresh, type Reporter } from '../../pipeline/run/refresh.ts'
import { readPipelineSettings, type PipelineSettings } from '../../pipeline/settings.ts'
import { PROJECT_ROOT, sharedPath } from './shared.ts'

/** A new `taxatlas-<label>-*` folder the caller removes (tests: support/temp-dirs.ts removes its own). */
export { makeTempDir as tempDir } from './make-temp-dir.ts'

export function pipelineSettings(env: {
  mirror: string
  artifacts: string
  build: string
  drops?: string
  states?: string
  now?: string
  extra?: Record<string, string>
}): PipelineSettings {
  return readPipelineSettings({
    TAXATLAS_MIRROR: env.mirror,
    TAXATLAS_DROPS: env.drops ?? sharedPath('drops'),
    TAXATLAS_GEO: sharedPath('geo'),
    TAXATLAS_ARTIFACTS: env.artifacts,
    TAXATLAS_BUILD: env.build,
    TAXATLAS_NOW: env.now ?? '2026-11-21T03:00:00.000Z',
    TAXATLAS_FETCH_RETRIES: '1',
    TAXATLAS_FETCH_TIMEOUT_MS: '2000',
    ...(env.states ? { TAXATLAS_STATES: env.states } : {}),
    ...env.extra,
  })
}

function recordingReporter(): Reporter & { lines: string[] } {
  const lines: string[] = []
  return {
    lines,
    start: () => {},
    state: (record) => lines.push(`${record.code} ${record.status}`),
    info: (message) => lines.push(message),
    finish: () => {},
  }
}

export const runRefresh = (settings: PipelineSettings) => refresh(settings, recordingReporter())

/** pipeline/main.ts as a child process, with `env` over this process's environment; never rejects on its exit code. */
export const refreshProcess = (env: Record<string, string>) => execa(process.execPath, ['--import', 'tsx', 'pipeline/main.ts'], { cwd: PROJECT_ROOT, env, reject: false })

/** Settings a deployment chooses (every TAXATLAS_*, the proxy variables, an extra CA) are not inherited from the test's environment. */
const DEPLOYMENT_SETTING = /^(TAXATLAS_|NODE_EXTRA_CA_CERTS$|(HTTPS?|ALL|NO)_PROXY$)/i

/** A child's environment with only `env` as its deployment settings, the rest of this process's environment (PATH, HOME) kept. */
export const withOnlySettings = (env: Record<string, string>): Record<string, string | undefined> => ({
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !DEPLOYMENT_SETTING.test(name))),
  ...env,
})

/** A project script (and its arguments) as a child process with only `env` as its settings. */
export const scriptProcessWithOnly = (script: string[], env: Record<string, string>) =>
  execa(process.execPath, ['--import', 'tsx', ...script], { cwd: PROJECT_ROOT, env: withOnlySettings(env), extendEnv: false, reject: false })

/** pipeline/main.ts as a child process with only `env` as its settings. */
export const refreshProcessWithOnly = (env: Record<string, string>) => scriptProcessWithOnly(['pipeline/main.ts'], env)
