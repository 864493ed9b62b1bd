// Types for parse-prometheus-text-format (a Prometheus text format parser used only by tests).
declare module 'parse-prometheus-text-format' {
  /** One sample: a counter's, gauge's or untyped metric's value, or a histogram's or summary's parts (all text). */
  export interface Sample {
    labels?: Record<string, string>;
    value?: string;
    buckets?: Record<string, string>;
    quantiles?: Record<string, string>;
    count?: string;
    sum?: string;
  }
  /** A metric family: `# HELP`, `# TYPE` and its samples. */
  export interface MetricFamily {
    name: string;
    help: string;
    type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
    metrics: Sample[];
  }
  export default function parsePrometheusTextFormat(text: string): MetricFamily[];
}
