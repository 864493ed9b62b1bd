import type { KnowledgeSource, UpdateKnowledgeSourceInput } from '@parley/client';
import { isCronSchedule, type ScheduleChoice } from './skip-words.js';

/**
 * What a site's settings form holds: path patterns as typed, the page and link-depth limits, subdomains, "Crawl
 * again" and its cron field.
 */
export interface WebsiteSettings {
  include: string;
  exclude: string;
  maxPages: string;
  /** Links followed from the start page. */
  maxDepth: string;
  subdomains: boolean;
  schedule: ScheduleChoice;
  cron: string;
}

/** The settings updateKnowledgeSource changes (each one given replaces the source's). */
export type WebsiteChanges = Omit<UpdateKnowledgeSourceInput, 'id' | 'sourceId'>;

/** Path patterns typed one per line or comma-separated. */
export const patterns = (text: string): string[] =>
  text
    .split(/[\n,]/)
    .map((p) => p.trim())
    .filter((p) => p !== '');

/**
 * A source's settings as its form starts: its patterns comma-separated, its page limit, its schedule (a cron
 * expression in the cron field).
 */
export function settingsOf(source: KnowledgeSource): WebsiteSettings {
  const cron = isCronSchedule(source.schedule);
  return {
    include: source.include.join(', '),
    exclude: source.exclude.join(', '),
    maxPages: String(source.maxPages),
    maxDepth: String(source.maxDepth),
    subdomains: source.subdomains,
    schedule: cron ? 'cron' : (source.schedule as ScheduleChoice),
    cron: cron ? source.schedule : '',
  };
}

const samePatterns = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((p, i) => p === b[i]);

/**
 * What Save sends for a source: only the settings that differ from the source's (`off` too, to stop a schedule);
 * an empty object when nothing changed. The server checks the values.
 * @example settingsChanges(source, { ...settingsOf(source), maxPages: '20' }) // { maxPages: 20 }
 */
export function settingsChanges(source: KnowledgeSource, values: WebsiteSettings): WebsiteChanges {
  const changes: WebsiteChanges = {};
  const include = patterns(values.include);
  const exclude = patterns(values.exclude);
  if (!samePatterns(include, source.include)) changes.include = include;
  if (!samePatterns(exclude, source.exclude)) changes.exclude = exclude;
  const maxPages = Number(values.maxPages.trim());
  if (values.maxPages.trim() !== '' && maxPages !== source.maxPages) changes.maxPages = maxPages;
  const maxDepth = Number(values.maxDepth.trim());
  if (values.maxDepth.trim() !== '' && maxDepth !== source.maxDepth) changes.maxDepth = maxDepth;
  if (values.subdomains !== source.subdomains) changes.subdomains = values.subdomains;
  const schedule = values.schedule === 'cron' ? values.cron.trim() : values.schedule;
  if (schedule !== source.schedule) changes.schedule = schedule;
  return changes;
}
