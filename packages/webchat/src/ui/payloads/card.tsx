import type { UiActions } from '../../ui-actions.js';
import { hrefOf, safeSrc } from '../links.js';

/** A card: a title, optional subtitle and image, and buttons (a link, a message to say, or a value to post). */
export type Card = {
  title: string;
  subtitle?: string;
  imageUrl?: string;
  actions: { action: string; label: string; value: string }[];
};

/** One card (alone or in a carousel). */
export function CardView({ card, actions }: { card: Card; actions: UiActions }) {
  return (
    <div class="pw-card">
      {safeSrc(card.imageUrl) && <img src={safeSrc(card.imageUrl)} alt="" loading="lazy" />}
      <div class="pw-card-body">
        <h3>{card.title}</h3>
        {card.subtitle && <p>{card.subtitle}</p>}
        {card.actions.length > 0 && (
          <div class="pw-actions">
            {card.actions.map((a) =>
              a.action === 'url' ? (
                <a class="pw-choice" {...hrefOf(a.value)} target="_blank" rel="noopener noreferrer">
                  {a.label}
                </a>
              ) : (
                <button
                  type="button"
                  class="pw-choice"
                  onClick={() =>
                    actions.sendPayload(
                      a.action === 'say'
                        ? { type: 'text', text: a.value || a.label }
                        : { type: 'text', text: a.label, value: a.value },
                    )
                  }
                >
                  {a.label}
                </button>
              ),
            )}
          </div>
        )}
      </div>
    </div>
  );
}
