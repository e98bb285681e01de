// The spatial index of every lng/lat lookup: a packed Hilbert R-tree (flatbush) over bounding
// boxes, built once and never changed. shapes.bin stores its bytes as one section and reopens the
// tree in place over the memory-mapped file; the pipeline's shape lookups and the nearest-ZIP
// search build theirs in memory.
import Flatbush from 'flatbush'
import { FormatError } from './format.ts'

/** Children per tree node (flatbush's default). */
export const TREE_NODE_SIZE = 16

export type Box = readonly [west: number, south: number, east: number, north: number]

/** The tree over `count` boxes, box i given by `boxOf(i)`; null when there are none (flatbush holds at least one). */
export function buildBoxTree(count: number, boxOf: (i: number) => Box): Flatbush | null {
  if (count === 0) return null
  const tree = new Flatbush(count, TREE_NODE_SIZE, Float64Array)
  for (let i = 0; i < count; i++) {
    const [west, south, east, north] = boxOf(i)
    tree.add(west, south, east, north)
  }
  tree.finish()
  return tree
}

/** Indices of the boxes holding the point, edges included, ascending. */
export function boxesAt(tree: Flatbush | null, x: number, y: number): number[] {
  if (!tree) return []
  return tree.search(x, y, x, y).sort((a, b) => a - b)
}

/** The tree's bytes, as `openBoxTree` reads them; empty for no tree. */
export function boxTreeBytes(tree: Flatbush | null): Uint8Array {
  return tree ? new Uint8Array(tree.data) : new Uint8Array(0)
}

/**
 * The tree stored in `bytes` (8-byte aligned, as every container section is), read in place, for
 * exactly `count` boxes. Its structure is checked as the other sections are: damaged bytes that
 * flatbush would follow into another section, or into a wrong box, are refused here.
 */
export function openBoxTree(bytes: Uint8Array, count: number, section: string): Flatbush | null {
  if (count === 0) {
    if (bytes.length !== 0) throw new FormatError(`${section}: holds a tree for no boxes`)
    return null
  }
  let tree: Flatbush
  try {
    tree = Flatbush.from(bytes.buffer as ArrayBuffer, bytes.byteOffset)
  } catch (error) {
    throw new FormatError(`${section}: not a flatbush tree (${(error as Error).message})`)
  }
  if (tree.ArrayType !== Float64Array || tree.nodeSize !== TREE_NODE_SIZE || tree.numItems !== count) {
    throw new FormatError(`${section}: a tree of ${tree.numItems} boxes in ${tree.ArrayType.name} by ${tree.nodeSize}, expected ${count} in Float64Array by ${TREE_NODE_SIZE}`)
  }
  const length = 8 + tree._boxes.byteLength + tree._indices.byteLength
  if (length !== bytes.length) throw new FormatError(`${section}: ${bytes.length} bytes, a tree of ${count} boxes takes ${length}`)
  checkNodes(tree, section)
  return tree
}

/**
 * Leaves name every box once; each node above points at the start of its block of children on the
 * level below (flatbush packs them `nodeSize` to a node, in order) and bounds exactly their boxes.
 */
function checkNodes(tree: Flatbush, section: string): void {
  const { _boxes: boxes, _indices: indices, _levelBounds: levelEnds, nodeSize, numItems } = tree
  const seen = new Uint8Array(numItems)
  for (let leaf = 0; leaf < numItems; leaf++) {
    const item = indices[leaf]
    if (item >= numItems || seen[item]) throw new FormatError(`${section}: leaf ${leaf} names box ${item} twice or past the ${numItems} boxes`)
    seen[item] = 1
  }
  for (let level = 1; level < levelEnds.length; level++) {
    const childStart = level === 1 ? 0 : levelEnds[level - 2]
    const childEnd = levelEnds[level - 1]
    for (let pos = childEnd, block = childStart; pos < levelEnds[level]; pos += 4, block += nodeSize * 4) {
      if (indices[pos >> 2] !== block) throw new FormatError(`${section}: node ${pos >> 2} points at ${indices[pos >> 2]}, not at its children from ${block}`)
      let west = Infinity, south = Infinity, east = -Infinity, north = -Infinity
      for (let child = block; child < Math.min(block + nodeSize * 4, childEnd); child += 4) {
        west = Math.min(west, boxes[child])
        south = Math.min(south, boxes[child + 1])
        east = Math.max(east, boxes[child + 2])
        north = Math.max(north, boxes[child + 3])
      }
      if (boxes[pos] !== west || boxes[pos + 1] !== south || boxes[pos + 2] !== east || boxes[pos + 3] !== north) {
        throw new FormatError(`${section}: node ${pos >> 2} does not bound its children`)
      }
    }
  }
}
