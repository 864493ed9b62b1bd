import type { Bot, BotInsights, InsightsPeriod } from '@parley/client';
import { useMemo } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { useConsole } from '../../context.js';
import { formatNumber } from '../../format.js';
import { useLoad, useOwnMember } from '../../hooks.js';
import { type MessageKey, t } from '../../i18n.js';
import { mayWriteQa } from '../../roles.js';
import { BotFrame } from '../bot-frame.js';
import { Notice } from '../notice.js';
import { answerThisHref } from '../qa/fields.js';
import { SelectField } from '../select-field.js';
import { type ChartLine, DayChart } from './day-chart.js';
import { InsightsFigures, percent } from './figures.js';
import { UnansweredList } from './unanswered-list.js';

/** The periods offered, as the Admin API names them. */
const PERIODS: ReadonlyArray<{ value: InsightsPeriod; label: MessageKey }> = [
  { value: '7d', label: 'insights.last7' },
  { value: '30d', label: 'insights.last30' },
  { value: '90d', label: 'insights.last90' },
];

/** The two charts of a period: conversations and messages per day, replies answered and not found per day. */
function Charts({ insights }: { insights: BotInsights }) {
  const charts = useMemo(() => {
    const days = insights.days.map((d) => d.date);
    const activity: ChartLine[] = [
      {
        label: t('insights.conversations'),
        values: insights.days.map((d) => d.conversations),
        color: '--chart-1',
      },
      {
        label: t('insights.visitorMessages'),
        values: insights.days.map((d) => d.visitorMessages),
        color: '--chart-2',
      },
    ];
    const replies: ChartLine[] = [
      { label: t('insights.answered'), values: insights.days.map((d) => d.answered), color: '--chart-3' },
      { label: t('insights.notFound'), values: insights.days.map((d) => d.notFound), color: '--chart-4' },
    ];
    return { days, activity, replies };
  }, [insights]);
  const { conversations, messages, replies } = insights;
  return (
    <div class="charts">
      <DayChart
        id="chart-activity"
        caption={t('insights.activityCaption')}
        summary={t('insights.activitySummary', {
          conversations: formatNumber(conversations.started),
          messages: formatNumber(messages.visitor),
          days: insights.days.length,
        })}
        days={charts.days}
        lines={charts.activity}
      />
      <DayChart
        id="chart-replies"
        caption={t('insights.repliesCaption')}
        summary={t('insights.repliesSummary', {
          answered: formatNumber(replies.answered),
          notFound: formatNumber(replies.notFound),
          rate: percent(replies.notFoundRate),
          days: insights.days.length,
        })}
        days={charts.days}
        lines={charts.replies}
      />
    </div>
  );
}

/** The period named by the address's `?period=` (7 days when absent or unknown). */
function periodOf(query: Record<string, string>): InsightsPeriod {
  return PERIODS.find((p) => p.value === query.period)?.value ?? '7d';
}

/** A bot's insights for the chosen period (kept in the address: a reload or a shared link shows the same). */
function BotInsightsView({ bot }: { bot: Bot }) {
  const { client, workspace } = useConsole();
  const { path, query, route } = useLocation();
  const period = periodOf(query);
  const setPeriod = (value: InsightsPeriod) => route(`${path}?period=${value}`, true);
  const insights = useLoad(['insights', workspace?.id, bot.id, period], () =>
    client.getBotInsights({ id: bot.id, period }).then((r) => r.insights),
  );
  const data = insights.data?.period === period ? insights.data : undefined;
  const me = useOwnMember();
  return (
    <div class="stack insights">
      <div class="insights-head">
        <h2>{t('section.insights')}</h2>
        <SelectField
          class="field period-field"
          id="insights-period"
          label={t('insights.period')}
          value={period}
          choices={PERIODS.map((p) => ({ value: p.value, label: t(p.label) }))}
          onValue={setPeriod}
        />
      </div>
      <Notice error={insights.error} />
      {data ? (
        <>
          <InsightsFigures insights={data} />
          <Charts insights={data} />
          <UnansweredList
            questions={data.unansweredQuestions}
            knowledgeHref={`/console/bots/${encodeURIComponent(bot.id)}/knowledge`}
            answerHref={
              mayWriteQa(me.data?.role)
                ? (q) => answerThisHref(bot.id, [q.question, ...q.variants])
                : undefined
            }
          />
        </>
      ) : insights.fetching ? (
        <p role="status">{t('insights.loading')}</p>
      ) : null}
    </div>
  );
}

/** Insights of a bot: figures, charts and the top unanswered questions over 7, 30 or 90 days. */
export function InsightsPage() {
  return <BotFrame>{(bot) => <BotInsightsView bot={bot} />}</BotFrame>;
}
