// Structured logs: one JSON object per line on stdout. Callers never pass API keys or headers.
export type LogFields = Record<string, unknown>

export type Logger = {
  info(event: string, fields?: LogFields): void
  warn(event: string, fields?: LogFields): void
  error(event: string, fields?: LogFields): void
}

// Lines are gathered and written together every FLUSH_MS (or past FLUSH_BYTES): under load a
// write per request line, or per turn of the event loop, costs more than answering the request.
// Written at exit too, so a crash loses nothing; only `kill -9` loses the last FLUSH_MS of lines.
const FLUSH_MS = 50
const FLUSH_BYTES = 64 * 1024

export function jsonLogger(write: (text: string) => void = (text) => process.stdout.write(text)): Logger {
  let pending = ''
  let scheduled = false
  const flush = () => {
    scheduled = false
    if (pending === '') return
    const text = pending
    pending = ''
    write(text)
  }
  process.on('exit', flush)
  const log = (level: string) => (event: string, fields: LogFields = {}) => {
    pending += logLine(level, event, fields)
    if (pending.length >= FLUSH_BYTES) flush()
    else if (!scheduled) {
      scheduled = true
      setTimeout(flush, FLUSH_MS).unref()
    }
  }
  return { info: log('info'), warn: log('warn'), error: log('error') }
}

let lastMs = 0
let lastTime = new Date(0).toISOString()

/** `{"time":…,"level":…,"event":…, …fields}`: the same as stringifying them as one object, without building it. */
function logLine(level: string, event: string, fields: LogFields): string {
  const ms = Date.now()
  if (ms !== lastMs) {
    lastMs = ms
    lastTime = new Date(ms).toISOString()
  }
  const rest = JSON.stringify(fields)
  return `{"time":"${lastTime}","level":${JSON.stringify(level)},"event":${JSON.stringify(event)}${rest === '{}' ? '}' : `,${rest.slice(1)}`}\n`
}

/** A logger that keeps every entry in memory, for tests and for the admin command's direct mode. */
export function memoryLogger(): Logger & { entries: (LogFields & { level: string; event: string })[] } {
  const entries: (LogFields & { level: string; event: string })[] = []
  const log = (level: string) => (event: string, fields: LogFields = {}) => void entries.push({ level, event, ...fields })
  return { entries, info: log('info'), warn: log('warn'), error: log('error') }
}
