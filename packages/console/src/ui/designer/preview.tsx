import { DEFAULTS as WEBCHAT_DEFAULTS } from '@parley/webchat/defaults';
import { useEffect, useRef, useState } from 'preact/hooks';
import { t } from '../../i18n.js';
import { NOT_PREVIEWED } from './fields.js';

/**
 * The webchat's defaults of the fields that have one: a field cleared in the form is previewed with its
 * default, since the webchat keeps the earlier (saved) value for a blank one. No greeting and no suggested
 * questions: `""` and `[]` remove them.
 */
const DEFAULTS: Record<string, unknown> = { ...WEBCHAT_DEFAULTS, greeting: '', suggestedQuestions: [] };

/** What the preview uses of the webchat's global object (`window.parley`, see packages/webchat). */
interface WebchatGlobal {
  config(options: { configuration: Record<string, unknown> }): void;
  on(type: string, handler: (data: unknown) => void): () => void;
}

/** The webchat of the framed page, once its loader has installed it. */
function webchatOf(frame: HTMLIFrameElement | null): WebchatGlobal | undefined {
  try {
    return (frame?.contentWindow as (Window & { parley?: WebchatGlobal }) | null)?.parley;
  } catch {
    return undefined;
  }
}

/**
 * A live preview of the real webchat: the bot's hosted chat page (`/webchat/{botId}`, the bundle sites load)
 * in a frame of the same origin, given the unsaved `configuration` field by field through the webchat's own
 * `config()` as the form changes. A field the webchat refuses changes nothing there (the form shows the
 * Admin API's message on Save). A cleared field shows its default when it has one (the bot's name for
 * `botName`); the others keep their saved value until the page is reloaded after Save.
 * `generation` reloads the page (after a Save).
 */
export function WebchatPreview({
  botId,
  botName,
  configuration,
  generation,
}: {
  botId: string;
  /** The bot's name: what the header shows without a `botName`. */
  botName: string;
  configuration: Record<string, unknown>;
  generation: number;
}) {
  const frame = useRef<HTMLIFrameElement>(null);
  const applied = useRef(new Map<string, string>());
  const [initialized, setInitialized] = useState(0);

  // Once the framed page's webchat is initialized (its dashboard configuration applied), the draft goes in.
  function onLoad() {
    applied.current = new Map();
    let tries = 0;
    const wait = () => {
      const chat = webchatOf(frame.current);
      if (chat) {
        chat.on('webchat:initialized', () => setInitialized((n) => n + 1));
        return;
      }
      if (++tries < 100) window.setTimeout(wait, 100);
    };
    wait();
  }

  useEffect(() => {
    const chat = initialized > 0 ? webchatOf(frame.current) : undefined;
    if (!chat) return;
    const shown = { ...DEFAULTS, botName, ...configuration };
    for (const [name, value] of Object.entries(shown)) {
      if (NOT_PREVIEWED.has(name)) continue;
      const json = JSON.stringify(value);
      if (applied.current.get(name) === json) continue;
      applied.current.set(name, json);
      // One field per call: the webchat refuses a whole call for one bad value, the others still show.
      chat.config({ configuration: { [name]: value } });
    }
    for (const name of [...applied.current.keys()]) {
      if (!(name in shown)) applied.current.delete(name);
    }
  }, [configuration, initialized, botName]);

  return (
    <div class="designer-preview">
      <iframe
        key={generation}
        ref={frame}
        class="designer-frame"
        title={t('designer.previewFrame')}
        src={`/webchat/${encodeURIComponent(botId)}`}
        onLoad={onLoad}
      />
    </div>
  );
}
