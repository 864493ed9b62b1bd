import type { BotInsights } from '@parley/client';
import { formatNumber, formatPercent } from '../../format.js';
import { t } from '../../i18n.js';

/** A rate (0..1) in words: "75%", or "—" when there is nothing to rate. */
export function percent(rate: number | null): string {
  return rate === null ? '—' : formatPercent(rate);
}

/** One figure: its name, its value, and a line saying what it is made of. */
function Tile({ label, value, detail }: { label: string; value: string; detail: string }) {
  return (
    <div class="tile">
      <dt>{label}</dt>
      <dd>
        <span class="tile-value">{value}</span>
        <span class="muted">{detail}</span>
      </dd>
    </div>
  );
}

/** The period's figures as tiles: conversations, messages, answered and not-found rates, replies by Q&A entries, feedback. */
export function InsightsFigures({ insights }: { insights: BotInsights }) {
  const { conversations, messages, replies, feedback } = insights;
  const n = formatNumber;
  return (
    <dl class="tiles" aria-label={t('insights.figures')}>
      <Tile
        label={t('insights.conversations')}
        value={n(conversations.started)}
        detail={t('insights.startedDetail')}
      />
      <Tile
        label={t('insights.messages')}
        value={n(messages.total)}
        detail={t('insights.messagesDetail', { visitor: n(messages.visitor), bot: n(messages.bot) })}
      />
      <Tile
        label={t('insights.answered')}
        value={percent(replies.answeredRate)}
        detail={t('insights.answeredDetail', { answered: n(replies.answered), total: n(replies.total) })}
      />
      <Tile
        label={t('insights.notFound')}
        value={percent(replies.notFoundRate)}
        detail={t('insights.notFoundDetail', { notFound: n(replies.notFound), total: n(replies.total) })}
      />
      <Tile label={t('insights.entries')} value={n(replies.byEntry)} detail={t('insights.entriesDetail')} />
      <Tile
        label={t('insights.positive')}
        value={percent(feedback.positiveRatio)}
        detail={t('insights.positiveDetail', { up: n(feedback.positive), down: n(feedback.negative) })}
      />
    </dl>
  );
}
