import type { Workspace } from '@parley/client';
import type { ComponentChildren } from 'preact';
import { useConsole } from '../context.js';
import { t } from '../i18n.js';

/**
 * A page of the chosen workspace: its title and, under it, which workspace (`about`, "of <name>" unless
 * given), then `children`. Without a workspace, the title and how to get one.
 */
export function WorkspaceFrame(props: {
  title: string;
  about?(workspace: Workspace): ComponentChildren;
  children: ComponentChildren;
}) {
  const { workspace } = useConsole();
  if (!workspace) {
    return (
      <section>
        <h1>{props.title}</h1>
        <p>{t('workspace.none')}</p>
      </section>
    );
  }
  return (
    <section class="stack">
      <div class="page-head">
        <h1>{props.title}</h1>
        <p class="muted">
          {props.about ? props.about(workspace) : t('workspace.of', { name: workspace.name })}
        </p>
      </div>
      {props.children}
    </section>
  );
}
