// Structured logs: one JSON object per line on stdout. Callers never pass API keys or headers.
export type LogFields = Record<string, unknown>

export type Logger = {
  info(event: string, fields?: LogFields): void
  warn(event: string, fields?: LogFields): void
  error(event: string, fields?: LogFields): void
}

export function jsonLogger(write: (line: string) => void = (line) => process.stdout.write(line)): Logger {
  const log = (level: string) => (event: string, fields: LogFields = {}) =>
    write(`${JSON.stringify({ time: new Date().toISOString(), level, event, ...fields })}\n`)
  return { info: log('info'), warn: log('warn'), error: log('error') }
}

/** A logger that keeps every entry in memory, for tests and for the admin command's direct mode. */
export function memoryLogger(): Logger & { entries: (LogFields & { level: string; event: string })[] } {
  const entries: (LogFields & { level: string; event: string })[] = []
  const log = (level: string) => (event: string, fields: LogFields = {}) => void entries.push({ level, event, ...fields })
  return { entries, info: log('info'), warn: log('warn'), error: log('error') }
}
