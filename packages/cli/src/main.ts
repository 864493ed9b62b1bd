#!/usr/bin/env node
// The only module with side effects: the `parley` command (bin/parley.js runs it), the server's own commands and
// the remote ones of this package.
import { runMain } from '@parley/server/cli';
import { REMOTE_COMMANDS } from './commands.js';

await runMain(REMOTE_COMMANDS);
