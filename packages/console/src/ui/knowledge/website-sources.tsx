import type { KnowledgeSource } from '@parley/client';
import { useRef, useState } from 'preact/hooks';
import { useConsole } from '../../context.js';
import { useForm } from '../../form.js';
import { formatCount, formatDateTime, formatNumber } from '../../format.js';
import { useAction, useLoad } from '../../hooks.js';
import { type MessageKey, t } from '../../i18n.js';
import { Field, Toggle } from '../field.js';
import { Notice } from '../notice.js';
import { useBotClient } from './file-status.js';
import { SiteFields } from './site-fields.js';
import {
  outcomeWords,
  type ScheduleChoice,
  scheduleToSend,
  scheduleWords,
  skipReason,
} from './skip-words.js';
import { patterns, settingsChanges, settingsOf } from './website-settings.js';

/** How often the sources are read while a crawl is queued or running. */
const CRAWL_EVERY = 1000;

const STATE_WORDS = {
  idle: 'crawl.idle',
  queued: 'crawl.queued',
  running: 'crawl.running',
  stopping: 'crawl.stopping',
} as const satisfies Record<KnowledgeSource['state'], MessageKey>;

/**
 * The Website tab of a knowledge base: add a site (a start page or a sitemap, paths to include or exclude, a
 * page limit), then each site's crawl live (found, fetched, indexed, skipped with reasons), Sync now and Stop,
 * its settings changed in place (paths, page limit, "Crawl again"), and its last runs.
 */
export function WebsiteSources(props: {
  botId: string;
  knowledgeBaseId: string;
  mayChange: boolean;
  onCrawled(): void;
}) {
  const { botId, knowledgeBaseId, mayChange } = props;
  const { workspace } = useConsole();
  const files = useBotClient(botId);
  const key = ['knowledge-sources', workspace?.id, botId, knowledgeBaseId];
  const [live, setLive] = useState(false);
  const sources = useLoad(
    key,
    async () => {
      const answer = await files.listKnowledgeSources({ id: knowledgeBaseId });
      const moving = answer.sources.some((s) => s.state !== 'idle');
      // A crawl that just ended brought pages: the knowledge base's counts and files are read again.
      if (live && !moving) props.onCrawled();
      setLive(moving);
      return answer;
    },
    { every: live ? CRAWL_EVERY : 0 },
  );
  const changed = () => {
    setLive(true);
    sources.reload();
  };
  return (
    <section class="stack" aria-labelledby="website-heading">
      <h3 id="website-heading">{t('site.title')}</h3>
      {mayChange ? (
        <AddWebsite
          botId={botId}
          knowledgeBaseId={knowledgeBaseId}
          rendersJavaScript={sources.data?.rendersJavaScript === true}
          onAdded={changed}
        />
      ) : null}
      {sources.data === undefined ? (
        sources.loading ? (
          <p role="status">{t('site.loading')}</p>
        ) : (
          <Notice error={sources.error} />
        )
      ) : sources.data.sources.length === 0 ? (
        <p class="muted">{t('site.empty')}</p>
      ) : (
        <ul class="list" aria-label={t('site.list')}>
          {sources.data.sources.map((s) => (
            <WebsiteRow key={s.id} botId={botId} source={s} mayChange={mayChange} onChanged={changed} />
          ))}
        </ul>
      )}
    </section>
  );
}

function AddWebsite(props: {
  botId: string;
  knowledgeBaseId: string;
  /** The server renders pages by JavaScript (PARLEY_CRAWL_RENDER_JS): the checkbox is offered. */
  rendersJavaScript: boolean;
  onAdded(): void;
}) {
  const files = useBotClient(props.botId);
  const { pending, error, run } = useAction();
  const form = useForm(
    {
      url: '',
      include: '',
      exclude: '',
      maxPages: '500',
      maxDepth: '10',
      subdomains: false,
      renderJs: false,
      schedule: 'off' as ScheduleChoice,
      cron: '',
    },
    async ({ url, include, exclude, maxPages, maxDepth, subdomains, renderJs, schedule, cron }) => {
      const inc = patterns(include);
      const exc = patterns(exclude);
      const every = scheduleToSend(schedule, cron);
      const added = await run(() =>
        files.createKnowledgeSource({
          id: props.knowledgeBaseId,
          type: 'website',
          url: url.trim(),
          ...(inc.length > 0 ? { include: inc } : {}),
          ...(exc.length > 0 ? { exclude: exc } : {}),
          maxPages: Number(maxPages),
          maxDepth: Number(maxDepth),
          ...(subdomains ? { subdomains: true } : {}),
          ...(props.rendersJavaScript && renderJs ? { render: 'javascript' as const } : {}),
          ...(every !== undefined ? { schedule: every } : {}),
        }),
      );
      if (!added) return;
      // The page and depth limits stay for the next site.
      form.reset({
        url: '',
        include: '',
        exclude: '',
        maxPages,
        maxDepth,
        subdomains: false,
        renderJs: false,
        schedule: 'off',
        cron: '',
      });
      props.onAdded();
    },
  );
  const url = form.field('url');
  const renderJs = form.field('renderJs');
  return (
    <form class="stack" onSubmit={form.submit} aria-label={t('site.addForm')}>
      <Field
        id="site-url"
        label={t('site.url')}
        hint={t('site.urlHint')}
        required
        maxLength={2048}
        {...url}
      />
      <SiteFields idPrefix="site" form={form} />
      {props.rendersJavaScript ? (
        <Toggle label={t('site.renderJs')} value={renderJs.value} onValue={renderJs.onValue} />
      ) : null}
      <Notice error={error} />
      <div class="actions">
        <button type="submit" class="primary" disabled={pending || url.value.trim() === ''}>
          {t('site.add')}
        </button>
      </div>
    </form>
  );
}

function WebsiteRow(props: {
  botId: string;
  source: KnowledgeSource;
  mayChange: boolean;
  onChanged(): void;
}) {
  const { source, mayChange } = props;
  const files = useBotClient(props.botId);
  const { pending, error, run } = useAction();
  const [editing, setEditing] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  /** The settings form closes, the keyboard back on the button that opened it. */
  const closeSettings = () => {
    setEditing(false);
    editButton.current?.focus();
  };
  const input = { id: source.knowledgeBaseId, sourceId: source.id };
  const act = async (work: () => Promise<unknown>) => {
    if (await run(work)) props.onChanged();
  };
  const c = source.progress;
  const moving = source.state !== 'idle';
  return (
    <li class="list-row stack" aria-label={source.url}>
      <div class="page-head">
        <a href={source.url} class="list-title" rel="noreferrer noopener" target="_blank">
          {source.url}
        </a>
        <span class="muted">
          {t(STATE_WORDS[source.state])} · {formatCount('count.page', 'count.pages', source.pages)}
          {source.schedule !== 'off' ? t('site.synced', { schedule: scheduleWords(source.schedule) }) : ''}
          {source.nextSyncAt ? t('site.next', { date: formatDateTime(source.nextSyncAt) }) : ''}
          {source.render === 'javascript' ? t('site.rendered') : ''}
        </span>
      </div>
      <p class="crawl-progress" role={moving ? 'status' : undefined}>
        {t('crawl.progress', {
          found: formatNumber(c.found),
          fetched: formatNumber(c.fetched),
          indexed: formatNumber(c.indexed),
          unchanged: formatNumber(c.unchanged),
          skipped: formatNumber(c.skipped),
        })}
        {c.removed > 0 ? t('crawl.removed', { n: formatNumber(c.removed) }) : ''}
      </p>
      {source.skipped.length > 0 ? (
        <details>
          <summary>{t('crawl.skippedCount', { n: formatNumber(source.skipped.length) })}</summary>
          <ul aria-label={t('crawl.skipped')}>
            {source.skipped.map((s) => (
              <li key={s.url}>
                {s.url} — {skipReason(s.reason)}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      {mayChange ? (
        <div class="actions">
          <button
            type="button"
            disabled={pending || moving}
            onClick={() => act(() => files.syncKnowledgeSource(input))}
          >
            {t('site.sync')}
          </button>
          <button
            type="button"
            disabled={pending || !moving || source.state === 'stopping'}
            onClick={() => act(() => files.stopKnowledgeSource(input))}
          >
            {t('site.stop')}
          </button>
          <button
            type="button"
            ref={editButton}
            aria-expanded={editing}
            aria-controls={editing ? `site-${source.id}-settings` : undefined}
            onClick={() => setEditing(!editing)}
          >
            {t('site.edit')} <span class="visually-hidden">{source.url}</span>
          </button>
        </div>
      ) : null}
      <Notice error={error} />
      {mayChange && editing ? (
        <EditWebsite botId={props.botId} source={source} onSaved={props.onChanged} done={closeSettings} />
      ) : null}
      {source.runs.length > 0 ? (
        <>
          <h4>{t('site.runs')}</h4>
          <ol aria-label={t('site.runs')} class="muted">
            {source.runs.map((r) => (
              <li key={r.startedAt}>
                {t('site.run', {
                  date: formatDateTime(r.endedAt),
                  outcome: outcomeWords(r.outcome),
                  indexed: formatNumber(r.counts.indexed),
                  unchanged: formatNumber(r.counts.unchanged),
                  skipped: formatNumber(r.counts.skipped),
                  removed: formatNumber(r.counts.removed),
                })}
                {r.message ? ` (${r.message})` : ''}
              </li>
            ))}
          </ol>
        </>
      ) : null}
    </li>
  );
}

/**
 * A site's settings changed in place: its paths, page limit and "Crawl again" as they are now; Save sends only
 * what changed (offered once something did), from the next crawl; the server's refusal shows in the form and
 * the site keeps its settings.
 */
function EditWebsite(props: { botId: string; source: KnowledgeSource; onSaved(): void; done(): void }) {
  const { source } = props;
  const files = useBotClient(props.botId);
  const { pending, error, run } = useAction();
  const form = useForm(settingsOf(source), async (values) => {
    const changes = settingsChanges(source, values);
    if (Object.keys(changes).length === 0) return;
    const saved = await run(() =>
      files.updateKnowledgeSource({ id: source.knowledgeBaseId, sourceId: source.id, ...changes }),
    );
    if (!saved) return;
    props.onSaved();
    props.done();
  });
  const id = `site-${source.id}`;
  const unchanged = Object.keys(settingsChanges(source, form.values)).length === 0;
  return (
    <form
      id={`${id}-settings`}
      class="inline-form stack"
      onSubmit={form.submit}
      aria-label={t('site.editForm', { url: source.url })}
    >
      <SiteFields idPrefix={id} form={form} />
      <p class="muted">{t('site.editHint')}</p>
      <Notice error={error} />
      <div class="actions">
        <button type="submit" class="primary" disabled={pending || unchanged}>
          {t('site.save')}
        </button>
        <button type="button" onClick={props.done} disabled={pending}>
          {t('action.cancel')}
        </button>
      </div>
    </form>
  );
}
