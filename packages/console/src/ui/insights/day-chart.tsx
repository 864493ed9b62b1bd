import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import { consoleLanguage, consoleLocale, t } from '../../i18n.js';

/** One line of a chart: its name, its value per day, and the CSS variable its colour comes from. */
export interface ChartLine {
  label: string;
  values: number[];
  /** A CSS custom property of insights.css (`--chart-1`…), so light and dark themes each get theirs. */
  color: string;
}

/** The value of a CSS custom property on `element` (falls back to the text colour). */
function cssColor(element: Element, name: string): string {
  const style = getComputedStyle(element);
  return style.getPropertyValue(name).trim() || style.color;
}

/**
 * The names of months and weekdays in the Console's language, for uPlot's date axis and legend (uPlot's own are
 * English, kept as they are for English).
 */
function dateNames(): uPlot.DateNames {
  const locale = consoleLocale();
  const names = (count: number, options: Intl.DateTimeFormatOptions, date: (i: number) => number) => {
    const format = new Intl.DateTimeFormat(locale, { ...options, timeZone: 'UTC' });
    return Array.from({ length: count }, (_, i) => format.format(new Date(date(i))));
  };
  const month = (i: number) => Date.UTC(2024, i, 1);
  // 7 January 2024 is a Sunday, uPlot's first weekday.
  const weekday = (i: number) => Date.UTC(2024, 0, 7 + i);
  return {
    MMMM: names(12, { month: 'long' }, month),
    MMM: names(12, { month: 'short' }, month),
    WWWW: names(7, { weekday: 'long' }, weekday),
    WWW: names(7, { weekday: 'short' }, weekday),
  };
}

/** A day (YYYY-MM-DD) as uPlot's x value: seconds since the epoch at UTC midnight. */
const daySeconds = (date: string) => Date.parse(`${date}T00:00:00Z`) / 1000;

/** uPlot's options for `lines` over `width`, coloured from the theme of `element`. */
function chartOptions(element: HTMLElement, lines: ChartLine[], width: number): uPlot.Options {
  const text = cssColor(element, '--chart-text');
  const grid = cssColor(element, '--chart-grid');
  const axis: uPlot.Axis = {
    stroke: text,
    grid: { stroke: grid, width: 1 },
    ticks: { stroke: grid, width: 1 },
  };
  return {
    width,
    height: 220,
    tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
    ...(consoleLanguage() === 'en' ? {} : { fmtDate: (tpl: string) => uPlot.fmtDate(tpl, dateNames()) }),
    legend: { show: true },
    cursor: { drag: { x: false, y: false } },
    scales: { y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
    axes: [
      axis,
      { ...axis, values: (_u, ticks) => ticks.map((t) => (Number.isInteger(t) ? String(t) : '')) },
    ],
    series: [
      { label: t('chart.day') },
      ...lines.map((line) => ({
        label: line.label,
        stroke: cssColor(element, line.color),
        width: 2,
        points: { show: true, size: 5 },
      })),
    ],
  };
}

/**
 * A per-day line chart drawn by uPlot on a canvas, with its text alternative: a visible caption, and the same
 * numbers as a table for screen readers (visually hidden). It redraws at its container's width and when the
 * colour scheme changes.
 */
export function DayChart({
  id,
  caption,
  summary,
  days,
  lines,
}: {
  id: string;
  caption: string;
  /** The numbers in one sentence (the canvas's accessible name). */
  summary: string;
  days: string[];
  lines: ChartLine[];
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const data: uPlot.AlignedData = [days.map(daySeconds), ...lines.map((l) => l.values)];
    let plot: uPlot | undefined;
    const draw = () => {
      plot?.destroy();
      plot = new uPlot(chartOptions(element, lines, Math.max(200, element.clientWidth)), data, element);
    };
    draw();
    const resized = new ResizeObserver(() =>
      plot?.setSize({ width: Math.max(200, element.clientWidth), height: 220 }),
    );
    resized.observe(element);
    const scheme = window.matchMedia('(prefers-color-scheme: dark)');
    scheme.addEventListener('change', draw);
    return () => {
      resized.disconnect();
      scheme.removeEventListener('change', draw);
      plot?.destroy();
    };
  }, [days, lines]);
  const captionId = `${id}-caption`;
  return (
    <figure class="card chart" aria-labelledby={captionId}>
      <figcaption id={captionId}>
        <h3>{caption}</h3>
        <p class="muted">{summary}</p>
      </figcaption>
      <div ref={box} class="chart-canvas" role="img" aria-label={`${caption}: ${summary}`} />
      <div class="visually-hidden">
        <table>
          <caption>{t('chart.perDay', { caption })}</caption>
          <thead>
            <tr>
              <th scope="col">{t('chart.day')}</th>
              {lines.map((line) => (
                <th key={line.label} scope="col">
                  {line.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {days.map((day, i) => (
              <tr key={day}>
                <th scope="row">{day}</th>
                {lines.map((line) => (
                  <td key={line.label}>{line.values[i] ?? 0}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
