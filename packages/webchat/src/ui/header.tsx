import type { ResolvedConfiguration } from '../config.js';
import type { UiActions } from '../ui-actions.js';
import { HeaderLinks, LINKS } from './header-links.js';
import { CloseIcon, RestartIcon } from './icons.js';
import { safeSrc } from './links.js';
import { useTexts } from './texts.js';

/** The window's header: avatar, bot name (the dialog's label), description, links, restart and close. */
export function Header({
  config,
  fullscreen,
  actions,
}: {
  config: ResolvedConfiguration;
  fullscreen: boolean;
  actions: UiActions;
}) {
  const s = useTexts();
  return (
    <div class="pw-header" data-variant={config.headerVariant}>
      {safeSrc(config.botAvatar) && <img class="pw-avatar" src={safeSrc(config.botAvatar)} alt="" />}
      <div class="pw-title">
        <h2 id="pw-title">{config.botName}</h2>
        {config.botDescription && <p>{config.botDescription}</p>}
        {LINKS.some((k) => config[k]) && <HeaderLinks config={config} />}
      </div>
      <button
        type="button"
        class="pw-icon-btn"
        aria-label={s.newConversation}
        onClick={() => actions.restart()}
      >
        <RestartIcon />
      </button>
      {!fullscreen && (
        <button type="button" class="pw-icon-btn" aria-label={s.closeChat} onClick={() => actions.close()}>
          <CloseIcon />
        </button>
      )}
    </div>
  );
}
