import type { Usage } from '@parley/client';
import { useEffect, useRef } from 'preact/hooks';
import { formatBytes, formatNumber } from '../../format.js';
import { type MessageKey, t } from '../../i18n.js';

/** How a usage figure is named and counted (`plain`: a count for people to see, never limited). */
const KINDS: Record<string, { label: MessageKey; bytes: boolean; plain?: boolean }> = {
  storage_count: { label: 'usage.storage', bytes: true },
  chat_storage_count: { label: 'usage.chatUploads', bytes: true },
  knowledgebase_vector_storage: { label: 'usage.vectors', bytes: true },
  bot_count: { label: 'usage.bots', bytes: false },
  workspace_member_count: { label: 'usage.members', bytes: false },
  integration_count: { label: 'usage.integrations', bytes: false },
  conversation_count: { label: 'usage.conversations', bytes: false, plain: true },
  message_count: { label: 'usage.messages', bytes: false, plain: true },
};

/** A usage figure's name in words. */
export function usageLabel(type: string): string {
  const kind = KINDS[type];
  return kind ? t(kind.label) : type.replace(/_/g, ' ');
}

/** "1.2 MB of 10 GB", "3 of 100", "5 (no limit)", or a plain count ("42"). */
export function usageText(usage: Pick<Usage, 'type' | 'value' | 'quota'>): string {
  const format = (n: number) => (KINDS[usage.type]?.bytes ? formatBytes(n) : formatNumber(n));
  if (KINDS[usage.type]?.plain) return format(usage.value);
  return usage.quota === null
    ? t('usage.noLimit', { value: format(usage.value) })
    : t('usage.of', { value: format(usage.value), quota: format(usage.quota) });
}

/**
 * One usage figure as a bar against its quota (a `progressbar` whose value text says it in words), or its
 * value alone when unlimited. The bar's width is set from script (the page's CSP allows no style attribute).
 */
export function UsageBar({
  usage,
  label = usageLabel(usage.type),
  name = label,
}: {
  usage: Usage;
  /** What the figure is called on screen. */
  label?: string;
  /** The bar's accessible name (default: the label). */
  name?: string;
}) {
  const fill = useRef<HTMLSpanElement>(null);
  const share = usage.quota ? Math.min(1, usage.value / usage.quota) : 0;
  const over = usage.quota !== null && usage.value > usage.quota;
  useEffect(() => {
    if (fill.current) fill.current.style.width = `${(share * 100).toFixed(1)}%`;
  }, [share]);
  const text = usageText(usage);
  return (
    <div class="usage">
      <div class="usage-head">
        <span class="usage-label">{label}</span>
        <span class={over ? 'usage-text usage-over' : 'usage-text'}>
          {text}
          {over ? ` ${t('usage.over')}` : ''}
        </span>
      </div>
      {usage.quota !== null ? (
        <div
          class="usage-bar"
          role="progressbar"
          aria-label={name}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.round(share * 100)}
          aria-valuetext={text}
        >
          <span ref={fill} class={over || share >= 0.9 ? 'usage-fill usage-fill-high' : 'usage-fill'} />
        </div>
      ) : null}
    </div>
  );
}
