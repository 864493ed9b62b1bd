// What the cluster suites share: a cluster whose processes call the stand-in model services (one URL per
// process), and a process's metrics read back.
import { afterAll, beforeAll } from 'vitest';
import { type Deployment, type DeploymentOptions, startDeployment } from './deployment.js';
import type { ServerProcess } from './server.js';
import { STAND_IN_DIMENSIONS, type StandInModels, startStandInModels } from './stand-in-models.js';

/**
 * Starts a cluster (e2e/support/deployment.ts) whose processes embed and answer through the stand-in models,
 * process `i` at `models.urlFor(i)`, with `env` besides.
 */
export function startModelCluster(models: StandInModels, env: Record<string, string>): Promise<Deployment> {
  const options: DeploymentOptions = {
    env: {
      PARLEY_EMBEDDER: 'openai',
      PARLEY_EMBEDDINGS_MODEL: 'stand-in',
      PARLEY_EMBEDDINGS_DIMENSIONS: String(STAND_IN_DIMENSIONS),
      PARLEY_CHAT_MODEL: 'stand-in',
      ...env,
    },
    processEnv: (i) => ({
      PARLEY_EMBEDDINGS_URL: models.urlFor(i),
      PARLEY_CHAT_MODEL_URL: models.urlFor(i),
    }),
  };
  return startDeployment('cluster', options);
}

/** A suite's model cluster: its deployment and the stand-in models, once the suite's `beforeAll` has run. */
export interface ModelCluster {
  readonly d: Deployment;
  readonly models: StandInModels;
}

/**
 * {@link startModelCluster} for a describe block: the stand-in models and the cluster (with `env`) started before
 * its tests; after them, held model calls released and both stopped. Read its fields in a test or a later hook.
 */
export function useModelCluster(env: Record<string, string>): ModelCluster {
  let d: Deployment | undefined;
  let models: StandInModels | undefined;
  beforeAll(async () => {
    models = await startStandInModels();
    d = await startModelCluster(models, env);
  }, 120_000);
  afterAll(async () => {
    models?.release();
    await d?.stop();
    await models?.close();
  }, 60_000);
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the model cluster is not started yet');
    return value;
  };
  return {
    get d() {
      return started(d);
    },
    get models() {
      return started(models);
    },
  };
}

/** The sum of a Prometheus metric's samples on one process whose labels include `labels`. */
export async function metric(
  proc: ServerProcess,
  name: string,
  labels: Record<string, string> = {},
): Promise<number> {
  const text = await (await fetch(`${proc.url}/metrics`)).text();
  let sum = 0;
  for (const line of text.split('\n')) {
    const match = line.match(/^([a-z_]+)(?:\{(.*)\})? (\S+)$/);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]] as [string, string]),
    );
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) sum += Number(match[3]);
  }
  return sum;
}
