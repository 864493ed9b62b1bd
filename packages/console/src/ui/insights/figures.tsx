import type { BotInsights } from '@parley/client';
import { formatPercent } from '../../format.js';

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
  return (
    <dl class="tiles" aria-label="Figures">
      <Tile label="Conversations" value={String(conversations.started)} detail="started in the period" />
      <Tile
        label="Messages"
        value={String(messages.total)}
        detail={`${messages.visitor} from visitors, ${messages.bot} from the bot`}
      />
      <Tile
        label="Answered"
        value={percent(replies.answeredRate)}
        detail={`${replies.answered} of ${replies.total} replies`}
      />
      <Tile
        label="Not found"
        value={percent(replies.notFoundRate)}
        detail={`${replies.notFound} of ${replies.total} replies found nothing`}
      />
      <Tile
        label="Q&A entries"
        value={String(replies.byEntry)}
        detail={`replies given by an entry your team wrote`}
      />
      <Tile
        label="Positive feedback"
        value={percent(feedback.positiveRatio)}
        detail={`${feedback.positive} thumbs up, ${feedback.negative} thumbs down`}
      />
    </dl>
  );
}
