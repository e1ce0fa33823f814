/**
 * A sorted list with positional access, after Python's sortedcontainers: the items live in
 * blocks of at most 2 × load, with each block's last item kept in `maxes` for a binary
 * search (load 300: at 100,000 items the memmove of an insert stays small while a window
 * still walks few blocks). Insert and remove cost O(log n + load) instead of the O(n) of splicing one flat
 * array, and `slice(start, end)` reads a window without copying the list; that is what a
 * 100,000-row view needs on every live event and every scroll.
 *
 * Items must be totally ordered by `compare`, and no two items may compare equal (break
 * ties with an id).
 */
export class SortedList<T> {
  private blocks: T[][] = [];
  private maxes: T[] = [];
  private count = 0;

  constructor(
    private readonly compare: (a: T, b: T) => number,
    private readonly load = 300,
  ) {}

  /** Builds from items in any order. */
  static from<T>(items: Iterable<T>, compare: (a: T, b: T) => number, load = 300): SortedList<T> {
    const list = new SortedList(compare, load);
    // Equal items are kept once, as insert() would.
    const sorted = [...items].sort(compare).filter((item, i, all) => i === 0 || compare(all[i - 1]!, item) !== 0);
    for (let i = 0; i < sorted.length; i += load) list.blocks.push(sorted.slice(i, i + load));
    list.maxes = list.blocks.map((b) => b[b.length - 1]!);
    list.count = sorted.length;
    return list;
  }

  get size(): number {
    return this.count;
  }

  /** The first block whose max is >= item. */
  private blockFor(item: T): number {
    let lo = 0;
    let hi = this.maxes.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.compare(this.maxes[mid]!, item) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private static bisect<T>(block: T[], item: T, compare: (a: T, b: T) => number): number {
    let lo = 0;
    let hi = block.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compare(block[mid]!, item) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Inserts the item; returns false (and changes nothing) when an equal item is present. */
  insert(item: T): boolean {
    if (this.blocks.length === 0) {
      this.blocks.push([item]);
      this.maxes.push(item);
      this.count = 1;
      return true;
    }
    let b = this.blockFor(item);
    if (b === this.blocks.length) b -= 1;
    const block = this.blocks[b]!;
    const i = SortedList.bisect(block, item, this.compare);
    if (i < block.length && this.compare(block[i]!, item) === 0) return false;
    block.splice(i, 0, item);
    this.maxes[b] = block[block.length - 1]!;
    this.count += 1;
    if (block.length > this.load * 2) {
      const tail = block.splice(this.load);
      this.blocks.splice(b + 1, 0, tail);
      this.maxes.splice(b, 1, block[block.length - 1]!, tail[tail.length - 1]!);
    }
    return true;
  }

  /** Removes the item equal to `item`; returns whether it was there. */
  remove(item: T): boolean {
    const b = this.blockFor(item);
    if (b === this.blocks.length) return false;
    const block = this.blocks[b]!;
    const i = SortedList.bisect(block, item, this.compare);
    if (i === block.length || this.compare(block[i]!, item) !== 0) return false;
    block.splice(i, 1);
    this.count -= 1;
    if (block.length === 0) {
      this.blocks.splice(b, 1);
      this.maxes.splice(b, 1);
    } else {
      this.maxes[b] = block[block.length - 1]!;
    }
    return true;
  }

  /** The position of the item equal to `item`, or -1. */
  indexOf(item: T): number {
    const b = this.blockFor(item);
    if (b === this.blocks.length) return -1;
    const block = this.blocks[b]!;
    const i = SortedList.bisect(block, item, this.compare);
    if (i === block.length || this.compare(block[i]!, item) !== 0) return -1;
    let offset = 0;
    for (let k = 0; k < b; k++) offset += this.blocks[k]!.length;
    return offset + i;
  }

  at(index: number): T | undefined {
    if (index < 0 || index >= this.count) return undefined;
    for (const block of this.blocks) {
      if (index < block.length) return block[index];
      index -= block.length;
    }
    return undefined;
  }

  /** Items [start, end), clamped to the list. */
  slice(start: number, end: number): T[] {
    const out: T[] = [];
    start = Math.max(0, start);
    end = Math.min(this.count, end);
    if (start >= end) return out;
    let offset = 0;
    for (const block of this.blocks) {
      const blockEnd = offset + block.length;
      if (blockEnd > start) {
        const from = Math.max(0, start - offset);
        const to = Math.min(block.length, end - offset);
        for (let i = from; i < to; i++) out.push(block[i]!);
        if (blockEnd >= end) break;
      }
      offset = blockEnd;
    }
    return out;
  }

  toArray(): T[] {
    return this.blocks.flat();
  }
}
