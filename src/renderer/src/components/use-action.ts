import { useCallback, useEffect, useRef, useState } from 'react';
import type { CallResult } from '../../../shared/contract';
import type { StationErrorData } from '../../../shared/errors';

export interface ActionState {
  busy: boolean;
  error: StationErrorData | null;
  /** Set after a success until the next run, for a short "Saved" confirmation. */
  done: boolean;
}

/** Runs one contract call at a time for a form, keeping its busy flag, its error and its success. */
export function useAction<A extends unknown[], T>(call: (...args: A) => Promise<CallResult<T>>, onSuccess?: (value: T) => void) {
  const [state, setState] = useState<ActionState>({ busy: false, error: null, done: false });
  const mounted = useRef(true);
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
      if (result.ok) onSuccess?.(result.value);
      return result;
    },
    [call, onSuccess],
  );
  return [run, state] as const;
}
