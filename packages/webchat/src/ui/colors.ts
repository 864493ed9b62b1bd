/** Readable colours derived from the configured brand colour (WCAG AA: 4.5:1 for text). */

type Rgb = [number, number, number];

function parse(hex: string): Rgb | undefined {
  const m = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(hex.trim());
  if (!m?.[1]) return undefined;
  const h = m[1].length === 3 ? [...m[1]].map((c) => c + c).join('') : m[1];
  return [0, 2, 4].map((i) => Number.parseInt(h.slice(i, i + 2), 16)) as Rgb;
}

const hex = (c: Rgb) => `#${c.map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;

function luminance([r, g, b]: Rgb): number {
  const lin = (v: number) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** WCAG contrast ratio of two colours. */
export function contrast(a: Rgb, b: Rgb): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** Moves `c` towards `to` in small steps until it reaches 4.5:1 against `against`. */
function until(c: Rgb, to: Rgb, against: Rgb): Rgb {
  let out = c;
  for (let t = 0; t <= 1 && contrast(out, against) < 4.5; t += 0.05)
    out = c.map((v, i) => v + ((to[i] as number) - v) * t) as Rgb;
  return out;
}

const WHITE: Rgb = [255, 255, 255];
const BLACK: Rgb = [0, 0, 0];

/**
 * `fill`: the brand colour for surfaces with text on them (user bubbles, solid header, launcher),
 * darkened just enough for white text, or kept with near-black text when it is light;
 * `onFill`: that text colour; `text`: the brand colour as text on the theme's background.
 */
export function brandColors(color: string, theme: 'light' | 'dark') {
  const c = parse(color) ?? [50, 118, 234];
  const light = luminance(c) > 0.4;
  const fill = light ? c : until(c, BLACK, WHITE);
  const bg: Rgb = theme === 'dark' ? [22, 26, 34] : WHITE;
  const text = until(c, theme === 'dark' ? WHITE : BLACK, bg);
  return { fill: hex(fill), onFill: light ? '#111111' : '#ffffff', text: hex(text) };
}
