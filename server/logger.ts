// Structured logs: one JSON object per line on stdout. Callers never pass API keys or headers.
//
// Access-log lines (event `request`, one per response) are the only high-volume lines: they are
// held for at most FLUSH_MS (or until FLUSH_BYTES are pending) and written together, so a busy
// server makes one write per batch instead of one per request. Any other line writes the pending
// ones first, in order, and itself at once; whatever is pending is written when the process exits
// (a clean stop, process.exit, an uncaught exception), so a clean exit loses no line.
export type LogFields = Record<string, unknown>

export type Logger = {
  info(event: string, fields?: LogFields): void
  warn(event: string, fields?: LogFields): void
  error(event: string, fields?: LogFields): void
}

/** Events whose lines may wait to be written with others. */
const BATCHED_EVENTS: ReadonlySet<string> = new Set(['request'])
const FLUSH_MS = 25
const FLUSH_BYTES = 64 * 1024

/** Loggers with lines pending, written out when the process exits. */
const pendingLoggers = new Set<() => void>()
let exitHookInstalled = false
const flushAllOnExit = () => {
  for (const flush of [...pendingLoggers]) flush()
}

/**
 * A logger writing JSON lines through `write` (stdout by default). `write` receives one or more
 * whole lines per call. `flush()` writes any pending access-log lines now.
 */
export function jsonLogger(write: (lines: string) => void = (lines) => void process.stdout.write(lines)): Logger & { flush(): void } {
  let pending = ''
  let timer: NodeJS.Timeout | null = null

  const flush = () => {
    if (timer) {
      clearTimeout(timer)
      timer = null
    }
    pendingLoggers.delete(flush)
    if (pending === '') return
    const text = pending
    pending = ''
    write(text)
  }

  const log = (level: string) => (event: string, fields: LogFields = {}) => {
    const line = formatLine(level, event, fields)
    if (!BATCHED_EVENTS.has(event)) {
      if (pending === '') write(line)
      else {
        pending += line
        flush()
      }
      return
    }
    pending += line
    if (pending.length >= FLUSH_BYTES) {
      flush()
      return
    }
    if (!timer) {
      timer = setTimeout(flush, FLUSH_MS)
      timer.unref()
      pendingLoggers.add(flush)
      if (!exitHookInstalled) {
        exitHookInstalled = true
        process.on('exit', flushAllOnExit)
      }
    }
  }
  return { info: log('info'), warn: log('warn'), error: log('error'), flush }
}

/**
 * `{"time":…,"level":…,"event":…,...fields}\n` exactly as JSON.stringify writes that object. The
 * common case (a plain object of strings, numbers, booleans and nulls, none of its keys named
 * time, level, event or toJSON or integer-like — an object lists those first) is written field by field;
 * anything else goes through JSON.stringify of the whole object.
 */
export function formatLine(level: string, event: string, fields: LogFields): string {
  const time = isoNow()
  const head = `{"time":"${time}","level":${jsonString(level)},"event":${jsonString(event)}`
  const proto = Object.getPrototypeOf(fields)
  if (proto === Object.prototype || proto === null) {
    let text = head
    let plain = true
    for (const key in fields) {
      if (key === 'time' || key === 'level' || key === 'event' || key === 'toJSON') {
        plain = false
        break
      }
      const first = key.charCodeAt(0)
      if (first >= 48 && first <= 57) {
        plain = false
        break
      }
      const value = fields[key]
      let json: string | undefined
      switch (typeof value) {
        case 'string':
          json = jsonString(value)
          break
        case 'number':
          json = Number.isFinite(value) ? String(value) : 'null'
          break
        case 'boolean':
          json = value ? 'true' : 'false'
          break
        case 'undefined':
        case 'function':
        case 'symbol':
          continue
        case 'object':
          if (value === null) json = 'null'
          else if (typeof (value as { toJSON?: unknown }).toJSON === 'function') plain = false
          else json = JSON.stringify(value)
          break
        default:
          plain = false
      }
      if (!plain) break
      if (json === undefined) continue
      text += `,${jsonString(key)}:${json}`
    }
    if (plain) return `${text}}\n`
  }
  return `${JSON.stringify({ time, level, event, ...fields })}\n`
}

// Characters JSON.stringify escapes: quote, backslash, controls, and (lone) surrogates.
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/

/** JSON.stringify(text), without its work for text that needs no escaping. */
const jsonString = (text: string): string => (NEEDS_ESCAPE.test(text) ? JSON.stringify(text) : `"${text}"`)

// new Date().toISOString(), with the part up to the second computed once per second.
let isoSecond = NaN
let isoPrefix = ''
function isoNow(): string {
  const ms = Date.now()
  const second = Math.floor(ms / 1000)
  if (second !== isoSecond) {
    const iso = new Date(second * 1000).toISOString()
    // Outside years 0000-9999 the format differs (±YYYYYY): no shortcut there.
    if (iso.length !== 24) return new Date(ms).toISOString()
    isoSecond = second
    isoPrefix = iso.slice(0, 20)
  }
  const milli = ms - second * 1000
  return `${isoPrefix}${milli < 10 ? '00' : milli < 100 ? '0' : ''}${milli}Z`
}

/** A logger that keeps every entry in memory, for tests and for the admin command's direct mode. */
export function memoryLogger(): Logger & { entries: (LogFields & { level: string; event: string })[] } {
  const entries: (LogFields & { level: string; event: string })[] = []
  const log = (level: string) => (event: string, fields: LogFields = {}) => void entries.push({ level, event, ...fields })
  return { entries, info: log('info'), warn: log('warn'), error: log('error') }
}
