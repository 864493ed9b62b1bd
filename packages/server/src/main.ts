#!/usr/bin/env node
// The only module with side effects: the server's process entry (`npm start` runs `node dist/main.js serve`), the
// `parley` command with the server's own commands. The `parley` bin of @parley/cli adds the remote ones.
import { runMain } from './cli/run.js';

await runMain();
