/**
 * The names of a whole related table, kept compactly for a large export: one string of every
 * name one after the other, and for each id where its name starts and ends.
 *
 * Why: a large order export names a whole customer table, and each lane of it (the main thread
 * and a worker, parallel.ts) keeps them all. A `Map` of strings holds an entry, a string and its
 * header for each name; this holds the text and two 4-byte positions per id, a fraction of that
 * (../README.md, "An export's memory").
 */
export class WholeNames {
  private constructor(
    private readonly text: string,
    /** By id: where its name starts in `text`, -1 for no such row. */
    private readonly starts: Int32Array,
    private readonly ends: Int32Array,
  ) {}

  /**
   * The names (as `keep` makes them into cells) by id, or null when the ids are too sparse for a
   * table indexed by id (more than four places per name).
   */
  static of(
    { ids, names }: { ids: readonly number[]; names: string[] },
    keep: (name: string) => string,
  ): WholeNames | null {
    let max = 0;
    for (const id of ids) {
      if (!Number.isSafeInteger(id) || id < 0) return null;
      if (id > max) max = id;
    }
    if (max > 4 * ids.length + 1024) return null;
    const starts = new Int32Array(max + 1).fill(-1);
    const ends = new Int32Array(max + 1);
    let at = 0;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i] as number;
      const cell = keep(names[i] as string);
      // The list becomes the parts of the text (the names it held are not needed any more).
      names[i] = cell;
      starts[id] = at;
      at += cell.length;
      ends[id] = at;
    }
    return new WholeNames(names.join(''), starts, ends);
  }

  /** The name of `id`, or undefined when the table had no such row. */
  get(id: number): string | undefined {
    const start = id >= 0 && id < this.starts.length ? (this.starts[id] as number) : -1;
    return start < 0 ? undefined : this.text.slice(start, this.ends[id]);
  }
}
