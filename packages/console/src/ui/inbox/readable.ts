/**
 * A bot's markdown as plain reading text: links shown as their label, the backslash escapes of markdown
 * dropped. The result is still rendered as text (never as HTML).
 * @example readable('— [guide.pdf, page 2](https://…)') // '— guide.pdf, page 2'
 */
export function readable(text: string): string {
  return text.replace(/\[((?:\\.|[^\]\\])*)\]\([^)\s]*\)/g, '$1').replace(/\\([\\`*_[\]<>#|])/g, '$1');
}
