import type { BotSummary as Bot, Member } from '@parley/client';
import { useState } from 'preact/hooks';
import { useConsole } from '../context.js';
import { formatNumber } from '../format.js';
import { useLoad } from '../hooks.js';
import { t } from '../i18n.js';
import { checklistDismissed, dismissChecklist, playgroundTried } from '../remembered.js';

/** The webchat fields a bot is made with (server: bots/creation.ts NEW_BOT_WEBCHAT): not yet "shaped". */
const MADE_WITH = new Set(['feedbackEnabled', 'handoffButton']);

/** One step of the first-run path: what to do, where, and whether it is done. */
interface Step {
  label: string;
  href?: string | undefined;
  hint: string;
  done: boolean;
}

/** The oldest bot: the one the path follows. */
const firstBot = (bots: readonly Bot[]) =>
  [...bots].sort((a, b) => a.createdAt.localeCompare(b.createdAt))[0] as Bot | undefined;

/** What the first-run path reads of the first bot: whether it has a file, a conversation, a shaped webchat. */
function useBotProgress(bot: Bot | undefined) {
  const { client, workspace } = useConsole();
  const id = bot?.id ?? '';
  return useLoad(
    ['first-run', workspace?.id, id],
    async () => {
      const [files, conversations, webchat] = await Promise.all([
        client.with({ botId: id }).listFiles({ pageSize: 1 }),
        client.listBotConversations({ id, pageSize: 1 }),
        client.getBotWebchat({ id }),
      ]);
      return {
        knowledge: files.files.length > 0,
        conversation: conversations.conversations.length > 0,
        webchat: Object.keys(webchat.configuration).some((key) => !MADE_WITH.has(key)),
      };
    },
    { enabled: bot !== undefined, fresh: true },
  );
}

/**
 * The first-run checklist of a workspace, for who builds bots: create a bot, add knowledge, try it in the
 * Playground, shape and embed the webchat, invite the team. Each step ticks itself from what is there (the
 * bot's files, a question asked in its Playground on this browser or a conversation, a webchat field set
 * beyond a new bot's, a second member or an invitation); gone once every step is done, or dismissed (this
 * browser remembers it per member).
 */
export function FirstRunChecklist({ bots, me }: { bots: readonly Bot[]; me: Member }) {
  const { client, workspace } = useConsole();
  const [dismissed, setDismissed] = useState(() => checklistDismissed(me.id));
  const bot = firstBot(bots);
  const progress = useBotProgress(dismissed ? undefined : bot);
  const members = useLoad(['members', workspace?.id], () => client.list.workspaceMembers().collect(), {
    enabled: !dismissed,
    fresh: true,
  });
  if (dismissed || (bot && !progress.data) || !members.data) return null;
  const base = bot ? `/console/bots/${encodeURIComponent(bot.id)}` : undefined;
  const steps: Step[] = [
    { label: t('firstRun.createBot'), hint: t('firstRun.createBotHint'), done: bot !== undefined },
    {
      label: t('firstRun.knowledge'),
      href: base && `${base}/knowledge`,
      hint: t('firstRun.knowledgeHint'),
      done: progress.data?.knowledge === true,
    },
    {
      label: t('firstRun.playground'),
      href: base && `${base}/playground`,
      hint: t('firstRun.playgroundHint'),
      done: bot !== undefined && (playgroundTried(bot.id) || progress.data?.conversation === true),
    },
    {
      label: t('firstRun.webchat'),
      href: base && `${base}/webchat`,
      hint: t('firstRun.webchatHint'),
      done: progress.data?.webchat === true,
    },
    {
      label: t('firstRun.team'),
      href: '/console/team',
      hint: t('firstRun.teamHint'),
      done: members.data.length > 1,
    },
  ];
  const done = steps.filter((s) => s.done).length;
  if (done === steps.length) return null;
  return (
    <section class="card stack first-run" aria-labelledby="first-run-title">
      <div class="first-run-head">
        <h2 id="first-run-title">{t('firstRun.title')}</h2>
        <span class="muted">
          {t('firstRun.done', { n: formatNumber(done), count: formatNumber(steps.length) })}
        </span>
      </div>
      <ol class="first-run-steps">
        {steps.map((step) => (
          <li key={step.label} class={step.done ? 'first-run-done' : undefined}>
            <span class="first-run-mark" aria-hidden="true">
              {step.done ? '✓' : ''}
            </span>
            <span class="first-run-what">
              {step.href && !step.done ? (
                <a href={step.href}>{step.label}</a>
              ) : (
                <span class="first-run-label">{step.label}</span>
              )}
              <span class="visually-hidden">
                {step.done ? t('firstRun.stepDone') : t('firstRun.stepToDo')}
              </span>
              <span class="hint">{step.hint}</span>
            </span>
          </li>
        ))}
      </ol>
      <div class="actions">
        <button
          type="button"
          onClick={() => {
            dismissChecklist(me.id);
            setDismissed(true);
          }}
        >
          {t('firstRun.hide')}
        </button>
      </div>
    </section>
  );
}
