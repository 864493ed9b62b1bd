import { BotFrame } from '../bot-frame.js';

/** Files (being built). */
export function FilesPage() {
  return <BotFrame>{() => <h2>Files</h2>}</BotFrame>;
}
