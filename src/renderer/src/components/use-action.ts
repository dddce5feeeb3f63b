import { useCallback, useEffect, useRef, useState } from 'react';
import type { CallResult } from '../../../shared/contract';
import type { StationErrorData } from '../../../shared/errors';

export interface ActionState {
  busy: boolean;
  error: StationErrorData | null;
  /** Set after a success until the next run, for a short "Saved" confirmation. */
  done: boolean;
}

/**
 * Runs a contract call for a form, keeping its busy flag, its error and its success. The
 * returned `run` changes only with `call`, never with `onSuccess`, so an effect may depend on it.
 */
export function useAction<A extends unknown[], T>(call: (...args: A) => Promise<CallResult<T>>, onSuccess?: (value: T) => void) {
  const [state, setState] = useState<ActionState>({ busy: false, error: null, done: false });
  const mounted = useRef(true);
  const latestOnSuccess = useRef(onSuccess);
  useEffect(() => {
    latestOnSuccess.current = onSuccess;
  });
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  const run = useCallback(
    async (...args: A): Promise<CallResult<T>> => {
      setState({ busy: true, error: null, done: false });
      const result = await call(...args);
      if (mounted.current) setState({ busy: false, error: result.ok ? null : result.error, done: result.ok });
      if (result.ok) latestOnSuccess.current?.(result.value);
      return result;
    },
    [call],
  );
  return [run, state] as const;
}
