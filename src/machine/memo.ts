// The one "look it up, or make it once and keep it" of the code: caches keyed by a machine, a
// parameter set or a state (WeakMaps, so they go with what they describe) and plain Maps.

interface Keyed<K, V> {
  get(key: K): V | undefined;
  set(key: K, value: V): unknown;
}

/**
 * `table`'s value for `key`, made by `make(key)` and kept the first time it is asked for. On
 * paths judged at every state, pass a function made once (module level, or outside the loop),
 * not an arrow written at the call: that would allocate a closure at every call, hit or miss.
 */
export function memo<K, V>(table: Keyed<K, V>, key: K, make: (key: K) => V): V {
  let v = table.get(key);
  if (v === undefined) {
    v = make(key);
    table.set(key, v);
  }
  return v;
}
