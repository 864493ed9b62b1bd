import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES } from './config.js';

/** The README's configuration table: variable → its default cell. */
function readmeVariables(): Map<string, string> {
  const readme = readFileSync(new URL('../../../../README.md', import.meta.url), 'utf8');
  const section = readme.slice(
    readme.indexOf('## Configuration'),
    readme.indexOf('\n## ', readme.indexOf('## Configuration') + 5),
  );
  const rows = new Map<string, string>();
  for (const line of section.split('\n')) {
    if (!line.startsWith('| `')) continue;
    const [names = '', fallback = ''] = line.split('|').slice(1, 3);
    // A row may name several variables with one default each: `A`, `B` | `1`, `2`.
    const defaults = [...fallback.matchAll(/`([^`]+)`/g)].map((m) => `\`${m[1]}\``);
    [...names.matchAll(/`([A-Z0-9_]+)`/g)].forEach((match, i) => {
      rows.set(String(match[1]), defaults.length > 1 ? (defaults[i] ?? '') : fallback.trim());
    });
  }
  return rows;
}

describe('the README configuration table', () => {
  it('lists exactly the variables the service reads', () => {
    expect([...readmeVariables().keys()].sort()).toEqual(Object.keys(CONFIG_VARIABLES).sort());
  });

  it('states the same default as the service for every variable whose description names one', () => {
    const mismatches: string[] = [];
    for (const [variable, fallback] of readmeVariables()) {
      const stated = /\(default ([^,;)]+)/.exec(CONFIG_VARIABLES[variable] ?? '')?.[1]?.trim();
      const inReadme = /`([^`]+)`/.exec(fallback)?.[1];
      if (stated === undefined || inReadme === undefined) continue;
      if (!stated.startsWith(inReadme)) mismatches.push(`${variable}: README ${inReadme}, service ${stated}`);
    }
    expect(mismatches).toEqual([]);
  });
});
