import { hrefOf, safeSrc } from '../links.js';
import { useTexts } from '../texts.js';

/** An image message. */
export function Image({ url }: { url: string }) {
  const s = useTexts();
  return (
    <div class="pw-media">
      <img src={safeSrc(url)} alt={s.image} loading="lazy" />
    </div>
  );
}

/** An audio or video message: the player, with a link to the file where the browser cannot play it. */
export function Player({ kind, url }: { kind: 'audio' | 'video'; url: string }) {
  const s = useTexts();
  const Tag = kind;
  return (
    <div class="pw-media">
      <Tag controls src={safeSrc(url)}>
        <track kind="captions" />
        <a {...hrefOf(url)}>{s[kind]}</a>
      </Tag>
    </div>
  );
}
