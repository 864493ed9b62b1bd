import type { RefObject } from 'preact';
import { useEffect } from 'preact/hooks';

/**
 * Phones: the window takes the visual viewport's height and offset, so the on-screen keyboard never
 * covers the composer (the CSS uses these only under 768 px).
 */
export function useVisualViewport(root: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const viewport = window.visualViewport;
    const el = root.current;
    if (!viewport || !el) return;
    const update = () => {
      el.style.setProperty('--pw-vv-height', `${viewport.height}px`);
      el.style.setProperty('--pw-vv-top', `${viewport.offsetTop}px`);
    };
    update();
    viewport.addEventListener('resize', update);
    viewport.addEventListener('scroll', update);
    return () => {
      viewport.removeEventListener('resize', update);
      viewport.removeEventListener('scroll', update);
    };
  }, []);
}
