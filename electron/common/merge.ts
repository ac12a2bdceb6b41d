// Merging configuration objects: a config file's fields over the defaults, a command's flags over the file.

type Json = Record<string, unknown>;

const isObject = (x: unknown): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x);

/** `over` merged into `base`, objects recursively (arrays and scalars replace). */
export function deepMerge(base: Json, over: Json): Json {
  const out: Json = { ...base };
  for (const [k, v] of Object.entries(over)) {
    const prev = out[k];
    out[k] = isObject(v) && isObject(prev) ? deepMerge(prev, v) : v;
  }
  return out;
}
