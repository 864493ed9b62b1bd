import { renderMarkdown } from './markdown.js';

/** Markdown (GFM) rendered into a `div`. */
export const Markdown = ({ source, className }: { source: string; className?: string }) => (
  // The HTML is sanitised by DOMPurify in renderMarkdown.
  <div class={className} dangerouslySetInnerHTML={{ __html: renderMarkdown(source) }} />
);
