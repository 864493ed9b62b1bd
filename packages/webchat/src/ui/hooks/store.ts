import { useEffect, useState } from 'preact/hooks';
import type { Store, UiState } from '../../store.js';

/** The store's current state; the component renders again on every change. */
export function useStore(store: Store): UiState {
  const [state, setState] = useState(store.get());
  useEffect(() => {
    setState(store.get());
    return store.subscribe(() => setState(store.get()));
  }, [store]);
  return state;
}
