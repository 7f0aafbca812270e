// The one least-recently-used map of the service, bounded by a total weight
// (entries count 1 each unless a weight is given, e.g. a body's bytes): the
// search's per-catalogue caches, the answer caches, the catalogue's and the
// state store's prepared statements, the key cache, /v1/am/validate's results.
export class Lru<K, V> {
  private readonly map = new Map<K, { value: V; weight: number }>();
  private total = 0;

  private readonly maxWeight: number;

  constructor(maxWeight: number) {
    this.maxWeight = maxWeight;
  }

  get(key: K): V | undefined {
    const hit = this.map.get(key);
    if (!hit) return undefined;
    // Re-insert: Map iteration order is insertion order, so the oldest is first.
    this.map.delete(key);
    this.map.set(key, hit);
    return hit.value;
  }

  set(key: K, value: V, weight = 1): void {
    const old = this.map.get(key);
    if (old) {
      this.total -= old.weight;
      this.map.delete(key);
    }
    if (weight > this.maxWeight) return;
    this.map.set(key, { value, weight });
    this.total += weight;
    for (const [k, v] of this.map) {
      if (this.total <= this.maxWeight) break;
      this.map.delete(k);
      this.total -= v.weight;
    }
  }

  delete(key: K): void {
    const old = this.map.get(key);
    if (!old) return;
    this.total -= old.weight;
    this.map.delete(key);
  }

  get size(): number {
    return this.map.size;
  }

  /** The summed weight of the entries held (bytes, for the caches weighed in bytes). */
  get weight(): number {
    return this.total;
  }

  clear(): void {
    this.map.clear();
    this.total = 0;
  }
}
