import { Fragment } from 'preact';
import { type Inline, parseReply } from './markdown.js';

/** One line's pieces as elements and text. */
function Line({ pieces }: { pieces: Inline[] }) {
  return (
    <>
      {pieces.map((p, i) =>
        p.kind === 'link' ? (
          <a key={i} href={p.url} target="_blank" rel="noopener noreferrer">
            {p.text}
          </a>
        ) : p.kind === 'strong' ? (
          <strong key={i}>{p.text}</strong>
        ) : (
          p.text
        ),
      )}
    </>
  );
}

/** Lines of one block, with line breaks between them. */
function Lines({ lines }: { lines: Inline[][] }) {
  return (
    <>
      {lines.map((line, i) => (
        <Fragment key={i}>
          {i > 0 ? <br /> : null}
          <Line pieces={line} />
        </Fragment>
      ))}
    </>
  );
}

/** A reply as the chat shows it: Markdown (see markdown.ts) as elements, or plain text. */
export function ReplyText({ text, format }: { text: string; format: 'text' | 'markdown' }) {
  if (format === 'text') return <p class="playground-reply-plain">{text}</p>;
  return (
    <div class="playground-reply-text">
      {parseReply(text).map((block, i) =>
        block.kind === 'quote' ? (
          <blockquote key={i}>
            <Lines lines={block.lines} />
          </blockquote>
        ) : block.kind === 'list' ? (
          <ul key={i}>
            {block.items.map((item, j) => (
              <li key={j}>
                <Line pieces={item} />
              </li>
            ))}
          </ul>
        ) : (
          <p key={i}>
            <Lines lines={block.lines} />
          </p>
        ),
      )}
    </div>
  );
}
