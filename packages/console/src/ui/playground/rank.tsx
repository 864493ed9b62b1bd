import { t } from '../../i18n.js';
import { percentOfBest } from './scores.js';

/**
 * A passage's place in a search's results: its rank in words and a bar as long as its strength next to the
 * best passage's (scores.ts); the bar itself is drawn for the eye only, its figure said in text.
 */
export function Rank({ rank, strength }: { rank: number; strength: number }) {
  const percent = percentOfBest(strength);
  return (
    <span class="rank">
      <span class="rank-number">#{rank}</span>
      <span class="rank-bar" aria-hidden="true">
        <span class="rank-fill" style={{ width: percent }} />
      </span>
      <span class="visually-hidden">{rank === 1 ? t('rank.best') : t('rank.share', { percent })}</span>
    </span>
  );
}
