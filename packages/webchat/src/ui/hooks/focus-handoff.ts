import { useEffect, useRef } from 'preact/hooks';

/** Whether this page is inside a frame (a preview, another site's iframe): then it never takes focus unasked. */
function framed(): boolean {
  try {
    return window.self !== window.top;
  } catch {
    return true;
  }
}

/**
 * Focus follows the window: into the composer (`input`) when it is shown, back to the launcher (`fab`)
 * when it is hidden. A window already shown when the page loads (the full-screen hosted page) takes the
 * focus only when the page is not framed: a frame (the Console's live preview, an iframe on a site) must not
 * pull the keyboard away from the page around it.
 */
export function useFocusHandoff(shown: boolean) {
  const input = useRef<HTMLTextAreaElement>(null);
  const fab = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(false);
  const mounted = useRef(false);
  useEffect(() => {
    const first = !mounted.current;
    mounted.current = true;
    if (shown && !wasOpen.current && !(first && framed())) input.current?.focus();
    if (!shown && wasOpen.current) fab.current?.focus();
    wasOpen.current = shown;
  }, [shown]);
  return { input, fab };
}
