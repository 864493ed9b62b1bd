import type { Bot, Client } from '@parley/client';
import { useEffect, useRef } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { useConsole } from '../../context.js';
import { useLoad, useOwnMember } from '../../hooks.js';
import { t } from '../../i18n.js';
import { useQueryClient } from '../../query.js';
import { mayChangeFiles } from '../../roles.js';
import { BotFrame } from '../bot-frame.js';
import { PageLoading } from '../page-loading.js';
import { DropZone, UploadList } from './drop-zone.js';
import { isIndexing, isSettled, LIVE_EVERY, type LinkedFile, useBotClient } from './file-status.js';
import { KnowledgeBaseFiles } from './knowledge-base-files.js';
import { describeCounts } from './knowledge-base-row.js';
import { useUploads } from './uploads.js';
import { WebsiteSources } from './website-sources.js';

/** A knowledge base: drop files into it, watch them upload and get indexed, re-index the failed ones. */
export function KnowledgeBasePage() {
  return <BotFrame>{(bot) => <KnowledgeBaseView bot={bot} />}</BotFrame>;
}

/** The files linked to a knowledge base; for those still moving, their records (progress), 50 at most. */
async function linkedFiles(files: Client, id: string): Promise<LinkedFile[]> {
  const linked = (await files.listKnowledgeBaseFiles({ id })).files;
  const moving = linked.filter((f) => !isSettled(f.status)).map((f) => f.fileId);
  if (moving.length === 0) return linked;
  const details = (await files.listFiles({ ids: moving.slice(0, 50), pageSize: 50 })).files;
  const byId = new Map(details.map((d) => [d.id, d]));
  return linked.map((f) => ({ ...f, detail: byId.get(f.fileId) }));
}

function KnowledgeBaseView({ bot }: { bot: Bot }) {
  const { workspace } = useConsole();
  const { params, query } = useRoute();
  const kbId = params.kbId ?? '';
  const tab = query.tab === 'website' ? 'website' : 'files';
  const files = useBotClient(bot.id);
  const me = useOwnMember();
  const mayChange = mayChangeFiles(me.data?.role);
  const linkedKey = ['knowledge-base-files', workspace?.id, bot.id, kbId];
  // Live while anything moves (an upload from this page, a file not settled, as last loaded): the list and
  // the counts are asked again every LIVE_EVERY ms until every file has settled.
  const shown = useQueryClient().getQueryData<LinkedFile[]>(linkedKey);
  const uploads = useUploads(files, kbId, () => {
    linked.reload();
    kb.reload();
  });
  const sending = uploads.uploads.some((u) => u.state === 'waiting' || u.state === 'uploading');
  const moving = sending || (shown ?? []).some((f) => isIndexing(f.status));
  const every = moving ? LIVE_EVERY : 0;
  const kb = useLoad(
    ['knowledge-base', workspace?.id, bot.id, kbId],
    () => files.getKnowledgeBase({ id: kbId }).then((r) => r.knowledgeBase),
    { every },
  );
  const linked = useLoad(linkedKey, () => linkedFiles(files, kbId), {
    every,
    enabled: kb.data !== undefined,
  });
  // The counts come from a request of their own: once the rows say every file settled, the counts are asked
  // once more, or they could stay as they were a moment before the last file settled (the polling stops).
  const wasMoving = useRef(false);
  const reloadCounts = kb.reload;
  useEffect(() => {
    if (wasMoving.current && !moving) reloadCounts();
    wasMoving.current = moving;
  }, [moving, reloadCounts]);
  const back = `/console/bots/${encodeURIComponent(bot.id)}/knowledge`;
  const here = `${back}/${encodeURIComponent(kbId)}`;

  if (!kb.data) {
    return <PageLoading of={kb} back={back} backWords={t('kb.back')} loadingWords={t('kb.loadingOne')} />;
  }
  return (
    <div class="stack">
      <p>
        <a href={back}>{t('kb.back')}</a>
      </p>
      <div class="page-head">
        <h2>{kb.data.name}</h2>
        <span class="muted">{describeCounts(kb.data)}</span>
      </div>
      <nav class="tabs" aria-label={t('kb.sections')}>
        <a href={`${here}`} aria-current={tab === 'files' ? 'page' : undefined}>
          {t('section.files')}
        </a>
        <a href={`${here}?tab=website`} aria-current={tab === 'website' ? 'page' : undefined}>
          {t('kb.website')}
        </a>
      </nav>
      {tab === 'website' ? (
        <WebsiteSources
          botId={bot.id}
          knowledgeBaseId={kbId}
          mayChange={mayChange}
          onCrawled={() => {
            linked.reload();
            kb.reload();
          }}
        />
      ) : (
        <>
          {mayChange ? (
            <>
              <DropZone onFiles={uploads.add} />
              <UploadList uploads={uploads.uploads} files={linked.data} onClear={uploads.clearFinished} />
            </>
          ) : null}
          <KnowledgeBaseFiles
            botId={bot.id}
            knowledgeBaseId={kbId}
            files={linked.data}
            loading={linked.loading}
            error={linked.error}
            mayChange={mayChange}
            uploads={uploads.uploads}
            onChanged={() => {
              linked.reload();
              kb.reload();
            }}
          />
        </>
      )}
    </div>
  );
}
