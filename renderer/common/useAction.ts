// A one-shot backend call started by a click (open a store, export): whether it is in flight, its
// error, and its last result.

import { useCallback, useState } from 'react';

export interface Action<T> {
  busy: boolean;
  error: unknown;
  result: T | undefined;
  run(call: () => Promise<T>): Promise<T | undefined>;
  reset(): void;
}

export function useAction<T>(): Action<T> {
  const [state, setState] = useState<{ busy: boolean; error: unknown; result: T | undefined }>({ busy: false, error: null, result: undefined });
  const run = useCallback(async (call: () => Promise<T>) => {
    setState({ busy: true, error: null, result: undefined });
    try {
      const result = await call();
      setState({ busy: false, error: null, result });
      return result;
    } catch (error) {
      setState({ busy: false, error, result: undefined });
      return undefined;
    }
  }, []);
  const reset = useCallback(() => setState({ busy: false, error: null, result: undefined }), []);
  return { ...state, run, reset };
}
