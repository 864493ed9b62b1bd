import type { TargetedDragEvent } from 'preact';
import { useState } from 'preact/hooks';

/**
 * Files dragged onto an element: `dragging` while they hover over it (when `enabled`), `upload` on
 * drop. Spread `handlers` on the element.
 */
export function useFileDrop(enabled: boolean, upload: (files: FileList | null | undefined) => boolean) {
  const [dragging, setDragging] = useState(false);
  const handlers = {
    onDragOver: (e: TargetedDragEvent<HTMLDivElement>) => {
      if (!enabled || !e.dataTransfer?.types.includes('Files')) return;
      e.preventDefault();
      e.dataTransfer.dropEffect = 'copy';
      setDragging(true);
    },
    onDragLeave: (e: TargetedDragEvent<HTMLDivElement>) => {
      const to = e.relatedTarget as Node | null;
      if (!to || !(e.currentTarget as HTMLElement).contains(to)) setDragging(false);
    },
    onDrop: (e: TargetedDragEvent<HTMLDivElement>) => {
      setDragging(false);
      if (upload(e.dataTransfer?.files)) e.preventDefault();
    },
  };
  return { dragging, handlers };
}
