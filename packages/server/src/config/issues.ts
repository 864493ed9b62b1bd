import { VARIABLE_NAMES } from './schema.js';

/** One setting that could not be parsed, with why. */
export interface ConfigIssue {
  variable: string;
  message: string;
}

/** Thrown when the environment holds bad values; lists every one of them. */
export class ConfigError extends Error {
  readonly issues: ConfigIssue[];
  constructor(issues: ConfigIssue[]) {
    super(`Invalid configuration:\n${issues.map((i) => `  - ${i.variable}: ${i.message}`).join('\n')}`);
    this.name = 'ConfigError';
    this.issues = issues;
  }
}

/** The issues found while reading the environment, listed in the order of the variables' table. */
export class IssueList {
  private readonly issues: ConfigIssue[] = [];

  add(variable: string, message: string): void {
    this.issues.push({ variable, message });
  }

  /** Reports `variable` with `message` alone: a value set in vain needs no word on its format. */
  replace(variable: string, message: string): void {
    for (let i = this.issues.length - 1; i >= 0; i--) {
      if (this.issues[i]?.variable === variable) this.issues.splice(i, 1);
    }
    this.add(variable, message);
  }

  /** Throws a ConfigError with every issue, in table order (several of one variable in the order found). */
  throwIfAny(): void {
    if (this.issues.length === 0) return;
    const rank = (variable: string) => VARIABLE_NAMES.indexOf(variable as (typeof VARIABLE_NAMES)[number]);
    throw new ConfigError([...this.issues].sort((a, b) => rank(a.variable) - rank(b.variable)));
  }
}
