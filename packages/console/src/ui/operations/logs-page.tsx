import type { Bot, LogEntry } from '@parley/client';
import { useMemo, useState } from 'preact/hooks';
import { useConsole } from '../../context.js';
import { formatDateTime, formatNumber } from '../../format.js';
import { useLoad } from '../../hooks.js';
import { t } from '../../i18n.js';
import { BotFrame } from '../bot-frame.js';
import { Toggle } from '../field.js';
import { ListState } from '../list-state.js';
import { type Choice, SelectField } from '../select-field.js';
import { Pager, usePager } from './pager.js';

const PAGE_SIZE = 50;
/** How often the live tail asks for newer lines (ms). */
const TAIL_EVERY = 2000;

type Level = LogEntry['level'] | '';

const levels = (): Choice<Level>[] => [
  { value: '', label: t('logs.allLevels') },
  { value: 'info', label: t('logs.info') },
  { value: 'warn', label: t('logs.warn') },
  { value: 'error', label: t('logs.error') },
];

/** One log line: level, time, request and outcome, all as text. */
function LogRow({ entry }: { entry: LogEntry }) {
  return (
    <li class="list-row log-row">
      <span class={`badge log-level log-${entry.level}`}>{entry.level}</span>
      <span class="log-message">{entry.message}</span>
      <span class="muted">
        <time dateTime={entry.timestamp}>{formatDateTime(entry.timestamp)}</time> ·{' '}
        {formatNumber(entry.durationMs, 3)} ms
        {entry.operationId ? ` · ${entry.operationId}` : ''}
      </span>
    </li>
  );
}

/** Newest first, each line once. */
function merged(newer: LogEntry[], page: LogEntry[]): LogEntry[] {
  const seen = new Set<string>();
  return [...newer, ...page]
    .filter((e) => !seen.has(e.id) && Boolean(seen.add(e.id)))
    .sort((a, b) => b.timestamp.localeCompare(a.timestamp) || b.id.localeCompare(a.id));
}

/** The log's filters: the level, and the live tail switch. */
function LogFilters(props: {
  level: Level;
  live: boolean;
  onLevel(level: Level): void;
  onLive(on: boolean): void;
}) {
  return (
    <div class="filters">
      <SelectField
        id="log-level"
        label={t('logs.level')}
        value={props.level}
        choices={levels()}
        onValue={props.onLevel}
      />
      <Toggle label={t('logs.liveTail')} value={props.live} onValue={props.onLive} />
    </div>
  );
}

/** A bot's request log: level filter, pages, and a live tail that adds newer lines every two seconds. */
function BotLogs({ bot }: { bot: Bot }) {
  const { client, workspace } = useConsole();
  const [level, setLevel] = useState<Level>('');
  const [tailSince, setTailSince] = useState<string | undefined>(undefined);
  const pager = usePager(level);
  const filter = { ...(level ? { level } : {}), ...(pager.token ? { nextToken: pager.token } : {}) };
  const page = useLoad(['logs', workspace?.id, bot.id, filter], () =>
    client.getBotLogs({ id: bot.id, pageSize: PAGE_SIZE, ...filter }),
  );
  const live = tailSince !== undefined && pager.page === 1;
  const tail = useLoad(
    ['logs-tail', workspace?.id, bot.id, level, tailSince],
    () =>
      client.getBotLogs({
        id: bot.id,
        pageSize: 100,
        ...(level ? { level } : {}),
        ...(tailSince ? { timeStart: tailSince } : {}),
      }),
    { every: TAIL_EVERY, enabled: live },
  );
  const lines = useMemo(
    () => merged(live ? (tail.data?.logs ?? []) : [], page.data?.logs ?? []),
    [live, tail.data, page.data],
  );
  function toggleTail(on: boolean) {
    pager.reset();
    setTailSince(on ? (page.data?.logs[0]?.timestamp ?? new Date().toISOString()) : undefined);
    if (!on) page.reload();
  }

  return (
    <div class="stack">
      <LogFilters level={level} live={live} onLevel={setLevel} onLive={toggleTail} />
      {live ? (
        <p class="hint" role="status">
          {t('logs.live')}
        </p>
      ) : null}
      <ListState
        of={{
          error: page.error ?? tail.error,
          loading: page.fetching,
          data: page.data === undefined ? undefined : lines,
        }}
        loadingWords={t('logs.loading')}
        empty={level ? t('logs.noMatch') : t('logs.empty')}
        label={t('logs.lines')}
        row={(entry) => <LogRow key={entry.id} entry={entry} />}
      />
      <Pager
        label={t('logs.pages')}
        pager={pager}
        nextToken={page.data?.meta.nextToken}
        onNext={() => setTailSince(undefined)}
      />
    </div>
  );
}

/** A bot's logs. */
export function LogsPage() {
  return (
    <BotFrame>
      {(bot) => (
        <>
          <h2>{t('section.logs')}</h2>
          <BotLogs bot={bot} />
        </>
      )}
    </BotFrame>
  );
}
