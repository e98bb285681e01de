// Resident memory of the server under load: sampled every second for the record (first, last,
// max), and judged on what the server retains after a full garbage collection before the load and
// again after it. Raw samples cannot tell a leak from garbage V8 has not collected yet (its old
// generation is collected when it decides to, in a sawtooth that can outlast a minute's soak).
// The verdict is on the memory V8 accounts for after that collection — JS heap in use plus
// external memory, where the snapshot's index buffers live — within the larger of 8 MB and 5%.
// RSS after the collection is reported beside it: after a hot swap it may stay above its start,
// because the allocator keeps the freed pages of the previous snapshot for reuse.

export type RetainedMemory = { rssMb: number; heapAndExternalMb: number }

export type RssVerdict = {
  samples: number
  series: number[]
  firstMb: number
  lastMb: number
  maxMb: number
  retainedBefore: RetainedMemory
  retainedAfter: RetainedMemory
  growthMb: number
  toleranceMb: number
  grows: boolean
}

export function sampleRss(read: () => number, everyMs = 1_000): { stop: () => number[] } {
  const samples = [read()]
  const timer = setInterval(() => {
    try {
      samples.push(read())
    } catch {
      // the process is gone; the verdict uses what was sampled
    }
  }, everyMs)
  return {
    stop: () => {
      clearInterval(timer)
      return samples
    },
  }
}

/** Memory retained now, from process.memoryUsage() right after a full GC and the process's RSS. */
export const retainedMemory = (usage: NodeJS.MemoryUsage, rssMb: number): RetainedMemory => ({ rssMb, heapAndExternalMb: (usage.heapUsed + usage.external) / 1048576 })

export function rssVerdict(samples: number[], before: RetainedMemory, after: RetainedMemory): RssVerdict {
  const toleranceMb = Math.max(8, before.heapAndExternalMb * 0.05)
  const growthMb = after.heapAndExternalMb - before.heapAndExternalMb
  return {
    samples: samples.length,
    series: samples.map((mb) => Math.round(mb)),
    firstMb: samples[0],
    lastMb: samples[samples.length - 1],
    maxMb: Math.max(...samples),
    retainedBefore: before,
    retainedAfter: after,
    growthMb,
    toleranceMb,
    grows: growthMb > toleranceMb,
  }
}
