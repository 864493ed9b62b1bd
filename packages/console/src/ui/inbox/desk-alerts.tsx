import { useEffect, useRef, useState } from 'preact/hooks';
import { formatCount } from '../../format.js';
import { t } from '../../i18n.js';
import { deskAlertsOn, rememberDeskAlerts } from '../../remembered.js';

/** The tab title's count prefix: "(2) ". */
const COUNT_PREFIX = /^\(\d+\) /;

/** `title` with the count of waiting conversations before it (none at 0). */
export function titleWithCount(title: string, waiting: number): string {
  const bare = title.replace(COUNT_PREFIX, '');
  return waiting > 0 ? `(${waiting}) ${bare}` : bare;
}

/**
 * Keeps the tab title's count of waiting conversations while `waiting` is given (the page sets its own title
 * too: the count is put back whenever the title changes), and takes it off when the page goes.
 */
function useTitleCount(waiting: number | undefined): void {
  useEffect(() => {
    if (waiting === undefined) return;
    const apply = () => {
      const next = titleWithCount(document.title, waiting);
      if (next !== document.title) document.title = next;
    };
    apply();
    const element = document.querySelector('title');
    const observer = element ? new MutationObserver(apply) : undefined;
    if (element) observer?.observe(element, { childList: true, characterData: true, subtree: true });
    return () => {
      observer?.disconnect();
      document.title = titleWithCount(document.title, 0);
    };
  }, [waiting]);
}

/** Whether the browser can show notifications, and whether it may. */
const notifications = () => (typeof Notification === 'undefined' ? undefined : Notification);

/**
 * The desk's opt-in alerts for new waiting conversations: a checkbox remembered on this browser; once on,
 * the tab title counts the conversations waiting for a person, and the browser notifies (when allowed) each
 * time that count grows while the inbox is open.
 */
export function DeskAlerts({ waiting }: { waiting: number | undefined }) {
  const [on, setOn] = useState(deskAlertsOn());
  const [denied, setDenied] = useState(notifications()?.permission === 'denied');
  const seen = useRef<number | undefined>(undefined);
  useTitleCount(on ? waiting : undefined);
  useEffect(() => {
    const before = seen.current;
    seen.current = waiting;
    const api = notifications();
    if (!on || waiting === undefined || before === undefined || waiting <= before) return;
    if (api?.permission !== 'granted') return;
    new api(formatCount('deskAlerts.oneWaiting', 'deskAlerts.manyWaiting', waiting), {
      body: t('deskAlerts.body'),
      tag: 'parley-desk-waiting',
    });
  }, [on, waiting]);
  const toggle = async (event: Event) => {
    const next = (event.currentTarget as HTMLInputElement).checked;
    setOn(next);
    rememberDeskAlerts(next);
    const api = notifications();
    if (next && api && api.permission === 'default') setDenied((await api.requestPermission()) === 'denied');
  };
  return (
    <div class="desk-alerts">
      <label>
        <input type="checkbox" checked={on} onChange={(e) => void toggle(e)} /> {t('deskAlerts.toggle')}
      </label>
      <span class="hint">{denied ? t('deskAlerts.blocked') : t('deskAlerts.hint')}</span>
    </div>
  );
}
