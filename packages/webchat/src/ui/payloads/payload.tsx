import type { MessagePayload } from '@parley/protocol';
import type { JSX } from 'preact';
import type { UiActions } from '../../ui-actions.js';
import { Markdown } from '../markdown-view.js';
import { FileLink, Location } from './attachment.js';
import { CardView } from './card.js';
import { Choice } from './choice.js';
import { Dropdown } from './dropdown.js';
import { Image, Player } from './media.js';

/** The body of a message, by payload type; buttons and selects are live only under the `last` message. */
export function Payload({
  payload,
  actions,
  last,
}: {
  payload: MessagePayload;
  actions: UiActions;
  last: boolean;
}): JSX.Element {
  switch (payload.type) {
    case 'text':
      return <Markdown className="pw-bubble" source={payload.text} />;
    case 'markdown':
      return <Markdown className="pw-bubble" source={payload.markdown} />;
    case 'image':
      return <Image url={payload.imageUrl} />;
    case 'audio':
      return <Player kind="audio" url={payload.audioUrl} />;
    case 'video':
      return <Player kind="video" url={payload.videoUrl} />;
    case 'file':
      return <FileLink url={payload.fileUrl} title={payload.title} />;
    case 'location':
      return <Location {...payload} />;
    case 'card':
      return <CardView card={payload} actions={actions} />;
    case 'carousel':
      return (
        <div class="pw-carousel">
          {payload.items.map((card) => (
            <CardView card={card} actions={actions} />
          ))}
        </div>
      );
    case 'choice':
      return <Choice text={payload.text} options={payload.options} actions={actions} last={last} />;
    case 'dropdown':
      return last ? (
        <Dropdown text={payload.text} options={payload.options} actions={actions} />
      ) : (
        <Markdown className="pw-bubble" source={payload.text} />
      );
    case 'bloc':
      return (
        <div class="pw-actions">
          {payload.items.map((item) => (
            <Payload payload={item} actions={actions} last={last} />
          ))}
        </div>
      );
    default:
      return <div class="pw-bubble">{JSON.stringify(payload)}</div>;
  }
}
