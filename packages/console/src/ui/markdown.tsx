import { Markdown as WebchatMarkdown } from '@parley/webchat/markdown';

/**
 * A bot's or a person's message as the webchat shows it: Markdown (GFM) rendered and sanitised by the webchat's
 * own renderer (marked, then DOMPurify: no script, event handler, style or form element, no javascript: URL;
 * links open in a new tab without an opener), or plain text kept as typed. The Playground, the Q&A pages and
 * the inbox read replies through this one module, so what they show is what a visitor sees.
 */
export function Markdown({
  text,
  format = 'markdown',
  class: className,
}: {
  text: string;
  format?: 'text' | 'markdown' | undefined;
  class?: string | undefined;
}) {
  if (format === 'text') return <p class={`markdown-plain ${className ?? ''}`.trim()}>{text}</p>;
  return <WebchatMarkdown source={text} className={`markdown ${className ?? ''}`.trim()} />;
}
