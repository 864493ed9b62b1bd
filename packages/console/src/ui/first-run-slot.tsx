import type { BotSummary, Member } from '@parley/client';
import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { checklistDismissed } from '../remembered.js';

type Checklist = ComponentType<{ bots: readonly BotSummary[]; me: Member }>;

/**
 * Where the first-run checklist (first-run.tsx) goes on the Bots page: its script is a chunk of its own, loaded
 * after the page only for a member who has not hidden it, so the first load does not carry it.
 */
export function FirstRunSlot({ bots, me }: { bots: readonly BotSummary[]; me: Member }) {
  const [loaded, setLoaded] = useState<Checklist | undefined>(undefined);
  const hidden = checklistDismissed(me.id);
  useEffect(() => {
    if (hidden) return;
    let live = true;
    void import('./first-run.js').then((m) => {
      if (live) setLoaded(() => m.FirstRunChecklist);
    });
    return () => {
      live = false;
    };
  }, [hidden]);
  const Loaded = loaded;
  return Loaded ? <Loaded bots={bots} me={me} /> : null;
}
