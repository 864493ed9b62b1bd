// What the cluster suites share: a cluster whose processes call the stand-in model services (one URL per
// process), and a process's metrics read back.
import { type Deployment, type DeploymentOptions, startDeployment } from './deployment.js';
import type { ServerProcess } from './server.js';
import { STAND_IN_DIMENSIONS, type StandInModels } from './stand-in-models.js';

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
