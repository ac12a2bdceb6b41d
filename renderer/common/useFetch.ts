// Loads data for a view. `key` names what is loaded (include the session revision so it refetches when
// the store changes); null skips loading. The previous data stays visible while a new key loads.

import { useEffect, useRef, useState } from 'react';

export interface Fetched<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
}

export function useFetch<T>(key: string | null, load: () => Promise<T>): Fetched<T> {
  const loader = useRef(load);
  loader.current = load;
  const [state, setState] = useState<Fetched<T> & { key: string | null }>({ data: undefined, error: null, loading: key !== null, key: null });

  useEffect(() => {
    if (key === null) {
      setState({ data: undefined, error: null, loading: false, key });
      return;
    }
    let live = true;
    setState((s) => ({ ...s, loading: true, error: null }));
    loader.current().then(
      (data) => live && setState({ data, error: null, loading: false, key }),
      (error: unknown) => live && setState((s) => ({ ...s, error, loading: false, key })),
    );
    return () => {
      live = false;
    };
  }, [key]);

  return { data: state.data, error: state.error, loading: state.loading };
}
