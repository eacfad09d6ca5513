/**
 * A Map that holds at most `max` entries: setting a new key when full forgets the oldest one
 * (insertion order). For caches of values that never go stale by themselves.
 */
export class BoundedMap<K, V> extends Map<K, V> {
  constructor(private readonly max: number) {
    super();
  }

  override set(key: K, value: V): this {
    if (!this.has(key) && this.size >= this.max) this.delete(this.keys().next().value!);
    return super.set(key, value);
  }
}
