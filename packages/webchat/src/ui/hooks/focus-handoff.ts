import { useEffect, useRef } from 'preact/hooks';

/**
 * Focus follows the window: into the composer (`input`) when it is shown, back to the launcher (`fab`)
 * when it is hidden.
 */
export function useFocusHandoff(shown: boolean) {
  const input = useRef<HTMLTextAreaElement>(null);
  const fab = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(false);
  useEffect(() => {
    if (shown && !wasOpen.current) input.current?.focus();
    if (!shown && wasOpen.current) fab.current?.focus();
    wasOpen.current = shown;
  }, [shown]);
  return { input, fab };
}
