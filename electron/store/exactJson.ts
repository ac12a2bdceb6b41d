// JSON that reads back exactly. JSON.stringify already writes every finite double so that JSON.parse
// returns the same bits (shortest round-trip form), except -0, which it writes as 0, and NaN/±Infinity,
// which it writes as null. Those are tagged as {"$num": "-0" | "NaN" | "Infinity" | "-Infinity"}.
// Used for episode records and configs, which must read back deep-equal (DESIGN.md section 3 item 9).

const TAG = '$num';

function encodeNumber(v: number): unknown {
  if (Object.is(v, -0)) return { [TAG]: '-0' };
  if (!Number.isFinite(v)) return { [TAG]: String(v) };
  return v;
}

export function toExactJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'number' ? encodeNumber(v) : v));
}

export function fromExactJson<T = unknown>(text: string): T {
  return JSON.parse(text, (_key, v: unknown) => {
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
      const keys = Object.keys(v);
      const tagged = (v as Record<string, unknown>)[TAG];
      if (keys.length === 1 && typeof tagged === 'string') {
        if (tagged === '-0') return -0;
        if (tagged === 'NaN' || tagged === 'Infinity' || tagged === '-Infinity') return Number(tagged);
      }
    }
    return v;
  }) as T;
}
