import parsePrometheusTextFormat, { type MetricFamily, type Sample } from 'parse-prometheus-text-format';

/** Whether a sample carries every label of `want` (and maybe more). */
const carries = (sample: Sample, want: Record<string, string>) =>
  Object.entries(want).every(([name, value]) => sample.labels?.[name] === value);

/**
 * A `/metrics` answer read by a Prometheus text format parser (parse-prometheus-text-format): its families
 * with their types, and the value of the series with some labels (undefined when none has them).
 *
 * The parser merges the buckets of a labelled histogram into one sample and drops its labels, so the series
 * are read from a second parse where histograms and summaries are declared untyped: each `_bucket`, `_sum`
 * and `_count` line then comes out as a sample of its own, labels kept.
 * @example parseMetrics(text).value('parley_http_requests_total', { operation: 'admin.listBots', status: '200' })
 */
export function parseMetrics(text: string) {
  const families: MetricFamily[] = parsePrometheusTextFormat(text);
  const untyped = text.replace(/^# TYPE (\S+) (histogram|summary)$/gm, '# TYPE $1 untyped');
  const series = new Map<string, Sample[]>();
  for (const family of parsePrometheusTextFormat(untyped)) {
    series.set(family.name, [...(series.get(family.name) ?? []), ...family.metrics]);
  }
  const value = (name: string, want: Record<string, string> = {}) => {
    const found = series.get(name)?.find((sample) => carries(sample, want))?.value;
    return found === undefined ? undefined : Number(found);
  };
  return {
    families,
    /** The family of a metric, with its type and help. */
    family: (name: string) => families.find((f) => f.name === name),
    /** The value of a counter's, gauge's or any series' sample with these labels. */
    value,
    /** A histogram's count of observations with these labels. */
    count: (name: string, want: Record<string, string> = {}) => value(`${name}_count`, want),
    /** A histogram's sum of observations with these labels. */
    sum: (name: string, want: Record<string, string> = {}) => value(`${name}_sum`, want),
  };
}

/** A parsed `/metrics` answer. */
export type Metrics = ReturnType<typeof parseMetrics>;
