// Notices a moved CURRENT pointer: fs.watch on the artifacts directory (the pointer is replaced
// by rename, so the file itself cannot be watched), plus a slow poll for filesystems where
// watching is unreliable (network mounts, some containers).
import { watch, type FSWatcher } from 'node:fs'
import type { Logger } from '../base/logger.ts'

const DEBOUNCE_MS = 50

export function watchPointer(
  artifactsDir: string,
  onChange: (trigger: 'pointer-change' | 'poll') => void,
  options: { pollMs: number; logger: Logger },
): () => void {
  let debounce: NodeJS.Timeout | null = null
  let watcher: FSWatcher | null = null
  try {
    watcher = watch(artifactsDir, { persistent: false }, () => {
      if (debounce) clearTimeout(debounce)
      debounce = setTimeout(() => onChange('pointer-change'), DEBOUNCE_MS)
      debounce.unref()
    })
    watcher.on('error', (error) => options.logger.warn('pointer_watch_failed', { reason: error.message }))
  } catch (error) {
    options.logger.warn('pointer_watch_failed', { reason: (error as Error).message, fallback: 'poll' })
  }
  const poll = setInterval(() => onChange('poll'), options.pollMs)
  poll.unref()
  return () => {
    watcher?.close()
    if (debounce) clearTimeout(debounce)
    clearInterval(poll)
  }
}
