// The in-process result cache of POST /v1/am/validate (per replica).

/** A small LRU: Map keeps insertion order; a hit is re-inserted at the end. */
export class LruCache<V> {
  private readonly map = new Map<string, V>();
  readonly max: number;
  constructor(max: number) {
    this.max = max;
  }
  get(key: string): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }
  set(key: string, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    while (this.map.size > this.max) this.map.delete(this.map.keys().next().value as string);
  }
  get size(): number {
    return this.map.size;
  }
}
