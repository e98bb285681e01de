// Structured logs: one JSON object per line on stdout. Callers never pass API keys or headers.
import { fstatSync, writeSync } from 'node:fs'

export type LogFields = Record<string, unknown>

/**
 * Whether log lines reach their output. A write refused (a full disk, a file-size limit, a closed
 * pipe) drops its lines and counts them; it never throws into the service. `dropped_lines` counts
 * every line dropped since start-up; `degraded` lasts until a write succeeds again.
 */
export type LogOutputHealth =
  | { status: 'ok'; dropped_lines: number }
  | { status: 'degraded'; problem: 'write_failed'; reason: string; since: string; dropped_lines: number }

export type Logger = {
  info(event: string, fields?: LogFields): void
  warn(event: string, fields?: LogFields): void
  error(event: string, fields?: LogFields): void
  /** the access log line of one request: `info('request', entry)`, written without a generic serializer */
  request(entry: AccessEntry): void
  /** whether lines reach the output; absent for loggers that cannot fail */
  output?(): LogOutputHealth
}

export type AccessEntry = {
  method: string | null
  route: string | null
  path: string | null
  /** the status sent; null when the client went away before any answer was sent (`aborted`) */
  status: number | null
  /** milliseconds, written rounded to hundredths */
  duration_ms: number
  support_reference: string
  account_id: string | null
  /** the client went away before the answer was sent */
  aborted?: true
  /** why a request no route saw was refused (Node's error code, or the check that refused it) */
  reason?: string | null
}

// Lines are gathered and written together every FLUSH_MS (or past FLUSH_LINES): under load a
// write per request line, or per turn of the event loop, costs more than answering the request.
// Access entries are kept as they are and formatted into lines at the flush, all together, off the
// path of the request they describe (their time is read when they are logged). Written at exit too,
// so a crash loses nothing; only `kill -9` loses the last FLUSH_MS of lines.
const FLUSH_MS = 50
const FLUSH_LINES = 256

/** a line as written, or an access entry with the time it was logged at */
type Queued = string | { time: string; entry: AccessEntry }

/**
 * Writes `text` to the output, or calls `failed` with what was not written and whether the write
 * stopped inside a line (leaving part of it in the output).
 */
export type LogSink = { write(text: string, failed: (error: Error, unwritten: string, cut: boolean) => void): void }

export function jsonLogger(sink: LogSink = stdoutSink()): Logger {
  let queue: Queued[] = []
  let scheduled = false
  let droppedLines = 0
  let failing: { reason: string; since: string; dropped: number } | null = null
  // A write cut partway leaves half a line in the output: the next write starts on a new line.
  let cutLine = false
  let failures = 0
  const failed = (error: Error, unwritten: string, cut: boolean) => {
    let lines = 0
    for (let i = unwritten.indexOf('\n'); i !== -1; i = unwritten.indexOf('\n', i + 1)) lines++
    droppedLines += lines
    failures++
    cutLine ||= cut
    if (failing) failing.dropped += lines
    else failing = { reason: (error as NodeJS.ErrnoException).code ?? error.message, since: timeNow(), dropped: lines }
  }
  const flush = () => {
    scheduled = false
    if (queue.length === 0) return
    const lines = queue
    queue = []
    let text = cutLine ? '\n' : ''
    const recovered = failing
    if (recovered) {
      text += logLine('warn', 'log_lines_dropped', { lines: recovered.dropped, reason: recovered.reason, since: recovered.since })
    }
    for (const line of lines) text += typeof line === 'string' ? line : accessLine(line.time, line.entry)
    const failuresBefore = failures
    sink.write(text, failed)
    if (failures === failuresBefore) {
      failing = null
      cutLine = false
    }
  }
  process.on('exit', flush)
  const add = (line: Queued) => {
    queue.push(line)
    if (queue.length >= FLUSH_LINES) flush()
    else if (!scheduled) {
      scheduled = true
      setTimeout(flush, FLUSH_MS).unref()
    }
  }
  const log = (level: string) => (event: string, fields: LogFields = {}) => add(logLine(level, event, fields))
  return {
    info: log('info'),
    warn: log('warn'),
    error: log('error'),
    request: (entry) => add({ time: timeNow(), entry }),
    output: () => (failing ? { status: 'degraded', problem: 'write_failed', reason: failing.reason, since: failing.since, dropped_lines: droppedLines } : { status: 'ok', dropped_lines: droppedLines }),
  }
}

/** A function writing each text whole or failing, as the logger's sink (tests). */
export function sinkOf(write: (text: string) => void): LogSink {
  return {
    write(text, failed) {
      try {
        write(text)
      } catch (error) {
        failed(error as Error, text, false)
      }
    },
  }
}

/**
 * Standard output. A file is written with write(2) directly: Node's stream over a file is
 * destroyed by its first failed write, so logging could never resume once the disk has room again.
 * A pipe or terminal goes through process.stdout, with its failures reported by the callback.
 */
export function stdoutSink(fd = 1): LogSink {
  let isFile = false
  try {
    isFile = fstatSync(fd).isFile()
  } catch {
    // no standard output: the stream reports every write as failed
  }
  if (!isFile) {
    const stream = fd === 2 ? process.stderr : process.stdout
    // Without a listener a failed write is an uncaught 'error' event, which ends the process.
    stream.on('error', () => {})
    return { write: (text, failed) => void stream.write(text, (error) => error && failed(error, text, false)) }
  }
  return {
    write(text, failed) {
      const bytes = Buffer.from(text)
      let at = 0
      try {
        while (at < bytes.length) at += writeSync(fd, bytes, at)
      } catch (error) {
        failed(error as Error, bytes.subarray(at).toString(), at > 0 && bytes[at - 1] !== 10)
      }
    },
  }
}

let lastMs = 0
let lastTime = new Date(0).toISOString()

function timeNow(): string {
  const ms = Date.now()
  if (ms !== lastMs) {
    lastMs = ms
    lastTime = new Date(ms).toISOString()
  }
  return lastTime
}

/** `{"time":…,"level":…,"event":…, …fields}`: the same as stringifying them as one object, without building it. */
function logLine(level: string, event: string, fields: LogFields): string {
  const rest = JSON.stringify(fields)
  return `{"time":"${timeNow()}","level":${JSON.stringify(level)},"event":${JSON.stringify(event)}${rest === '{}' ? '}' : `,${rest.slice(1)}`}\n`
}

// One per request: field by field, as logLine would write it, at a third of the cost.
const text = JSON.stringify
// A string of printable ASCII without `"` or `\` (methods, routes, ids, most paths) is quoted as
// is: the same JSON as JSON.stringify gives, for less. Anything else goes through JSON.stringify.
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/
const quoted = (value: string | null) => (value === null ? 'null' : PLAIN.test(value) ? `"${value}"` : text(value))

function accessLine(time: string, e: AccessEntry): string {
  return (
    `{"time":"${time}","level":"info","event":"request","method":${quoted(e.method)},"route":${quoted(e.route)},` +
    `"path":${quoted(e.path)},"status":${e.status},"duration_ms":${Math.round(e.duration_ms * 100) / 100},"support_reference":${quoted(e.support_reference)},` +
    `"account_id":${quoted(e.account_id)}${e.aborted ? ',"aborted":true' : ''}${e.reason === undefined ? '' : `,"reason":${text(e.reason)}`}}\n`
  )
}

/** A logger that keeps every entry in memory, for tests and for the admin command's direct mode. */
export function memoryLogger(): Logger & { entries: (LogFields & { level: string; event: string })[] } {
  const entries: (LogFields & { level: string; event: string })[] = []
  const log = (level: string) => (event: string, fields: LogFields = {}) => void entries.push({ level, event, ...fields })
  const info = log('info')
  return { entries, info, warn: log('warn'), error: log('error'), request: (entry) => info('request', entry) }
}
