// A stand-in chat model that reads as a perfect model would, for the visitor set (`--chat-model oracle`): it
// measures what sending passages to a chat model can reach at best (issue 33, item 6), since no model is run
// here. It speaks the OpenAI chat completions protocol (`POST /v1/chat/completions`, answered whole) and knows
// the visitor set's expected facts: given a question of the set and numbered passages, it answers with the
// first passage holding every fact (case and spacing aside), cited; without one, it answers `NO_ANSWER` when
// the server's instructions offer it (an unsure question) and the first passage otherwise (a sure answer, as
// quoted offline). A question it does not know (not of the set) is answered with the first passage.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { VisitorQuestion } from './set.js';

const squeeze = (text: string) => text.toLowerCase().replace(/\s+/g, ' ');

/** The numbered passages of a Parley prompt (`[n] (where)\ntext`), their text without the `[n] (where)` line. */
function passagesOf(prompt: string): string[] {
  const body = prompt.slice(0, prompt.lastIndexOf('\n\nQuestion: ')).replace(/^Passages:\n\n/, '');
  return body.split(/\n\n(?=\[\d+\] \()/).map((p) => p.replace(/^\[\d+\] \([^\n]*\)\n/, ''));
}

/** The oracle's answer to one prompt. */
export function oracleAnswer(system: string, prompt: string, question: VisitorQuestion | undefined): string {
  const passages = passagesOf(prompt);
  const facts = question?.answer?.facts.map(squeeze) ?? [];
  const holding = question?.answer
    ? passages.findIndex((p) => facts.every((f) => squeeze(p).includes(f)))
    : -1;
  if (holding >= 0) return `${passages[holding]} [${holding + 1}]`;
  if (system.includes('NO_ANSWER')) return 'NO_ANSWER';
  return `${passages[0] ?? ''} [1]`;
}

/** Starts the oracle on a free port of 127.0.0.1: its base URL (ending in /v1), the calls it answered, close. */
export async function startOracleModel(questions: readonly VisitorQuestion[]) {
  const byText = new Map(questions.map((q) => [q.text.trim(), q]));
  const calls = { sure: 0, unsure: 0 };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        messages: Array<{ role: string; content: string }>;
      };
      const system = body.messages[0]?.content ?? '';
      const prompt = body.messages.at(-1)?.content ?? '';
      const asked = prompt.slice(prompt.lastIndexOf('\n\nQuestion: ') + '\n\nQuestion: '.length).trim();
      if (system.includes('NO_ANSWER')) calls.unsure += 1;
      else calls.sure += 1;
      const content = oracleAnswer(system, prompt, byText.get(asked));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content } }] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The chat model the visitor set's server is given (`--chat-model` / BENCH_CHAT_MODEL): none (undefined), the
 * oracle above (`oracle`), or an OpenAI-compatible service's base URL with its model name
 * (`--chat-model-name` / BENCH_CHAT_MODEL_NAME). Its server settings, what it is called in the report, and close.
 */
export async function visitorChatModel(
  spec: string | undefined,
  name: string | undefined,
  questions: readonly VisitorQuestion[],
): Promise<{ settings: Record<string, string>; describe: () => string; close: () => Promise<void> }> {
  if (!spec) return { settings: {}, describe: () => 'no chat model', close: async () => {} };
  if (spec === 'oracle') {
    const oracle = await startOracleModel(questions);
    return {
      settings: { PARLEY_CHAT_MODEL_URL: oracle.url, PARLEY_CHAT_MODEL: 'oracle' },
      describe: () =>
        `chat model: the oracle reader (${oracle.calls.sure} sure and ${oracle.calls.unsure} unsure questions sent to it)`,
      close: oracle.close,
    };
  }
  if (!/^https?:\/\/\S+$/.test(spec))
    throw new Error(`--chat-model must be oracle or an http(s) URL, got "${spec}"`);
  if (!name) throw new Error('--chat-model-name is required with a chat model URL');
  return {
    settings: { PARLEY_CHAT_MODEL_URL: spec, PARLEY_CHAT_MODEL: name },
    describe: () => `chat model: ${name} at ${spec}`,
    close: async () => {},
  };
}
