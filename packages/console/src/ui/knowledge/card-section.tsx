import type { ComponentChildren } from 'preact';

/** A card of a file's or a knowledge base's page: a section named by its heading (`id`), then its content. */
export function CardSection(props: {
  id: string;
  title: string;
  class?: string;
  children: ComponentChildren;
}) {
  return (
    <section class={props.class ? `card stack ${props.class}` : 'card stack'} aria-labelledby={props.id}>
      <h3 id={props.id} class="kn-h">
        {props.title}
      </h3>
      {props.children}
    </section>
  );
}
