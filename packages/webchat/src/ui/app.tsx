import { useRef } from 'preact/hooks';
import { isRightToLeft } from '../i18n.js';
import type { Store } from '../store.js';
import type { UiActions } from '../ui-actions.js';
import { ChatWindow } from './chat-window.js';
import { useFocusHandoff } from './hooks/focus-handoff.js';
import { useStore } from './hooks/store.js';
import { useVisualViewport } from './hooks/visual-viewport.js';
import { Launcher } from './launcher.js';
import { Texts } from './texts.js';
import { rootStyle } from './theme.js';

/** The whole webchat: the launcher (unless full screen) and the chat window, themed from the configuration. */
export function App({ store, actions }: { store: Store; actions: UiActions }) {
  const state = useStore(store);
  const { config, open, layout } = state;
  const fullscreen = layout === 'fullscreen';
  const shown = open || fullscreen;
  const root = useRef<HTMLDivElement>(null);
  const focus = useFocusHandoff(shown);
  useVisualViewport(root);

  return (
    <Texts.Provider value={state.strings}>
      <div
        ref={root}
        class="pw-root"
        lang={state.locale}
        dir={isRightToLeft(state.locale) ? 'rtl' : 'ltr'}
        data-theme={config.themeMode}
        data-variant={config.variant}
        data-layout={layout}
        style={rootStyle(config)}
      >
        {!fullscreen && (
          <Launcher
            open={open}
            unread={state.unread}
            locale={state.locale}
            config={config}
            actions={actions}
            buttonRef={focus.fab}
          />
        )}
        <ChatWindow state={state} actions={actions} shown={shown} inputRef={focus.input} />
      </div>
    </Texts.Provider>
  );
}
