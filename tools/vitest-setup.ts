// Vitest's setup file, run in each test worker before every test file: new password hashes at the test cost
// (packages/server/src/access/passwords.ts; stored hashes carry their parameters, so verification is unchanged).
import { useTestPasswordCost } from '../packages/server/src/access/passwords.js';

useTestPasswordCost();
