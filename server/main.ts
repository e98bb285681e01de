// `make serve`: read the settings, start the server, reload on SIGHUP, close on SIGTERM/SIGINT.
import { jsonLogger } from './base/logger.ts'
import { SettingsError } from './base/settings-error.ts'
import { readServerSettings } from './settings.ts'
import { startServer } from './server.ts'

const logger = jsonLogger()

try {
  const settings = readServerSettings()
  // `--init`: create an empty store where one was before and its file is missing (store/store-marker.ts).
  if (process.argv.slice(2).includes('--init')) settings.storeInit = true
  const running = await startServer(settings, { logger })
  logger.info('listening', {
    pid: process.pid,
    url: running.url,
    admin_url: running.adminUrl,
    snapshot: running.snapshots.current.id,
    startup_ms: Math.round(performance.now()),
    rss_mb: Math.round(process.memoryUsage().rss / 1048576),
  })
  process.on('SIGHUP', () => void running.reload('signal'))
  const shutdown = (signal: string) => {
    logger.info('shutting_down', { signal })
    running.close().then(
      () => logger.info('stopped'),
      (error: Error) => {
        logger.error('shutdown_failed', { reason: error.message })
        process.exitCode = 1
      },
    )
  }
  process.once('SIGTERM', () => shutdown('SIGTERM'))
  process.once('SIGINT', () => shutdown('SIGINT'))
} catch (error) {
  const reason = error instanceof SettingsError ? error.message : (error as Error).message
  logger.error('startup_failed', { reason, ...(error instanceof SettingsError ? {} : { stack: (error as Error).stack }) })
  process.exitCode = 1
}
