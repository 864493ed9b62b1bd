// The fetch options of an API call made as a bot, shared by the benchmarks and the e2e tests.

/** The options of one call as the bot (its access key and id), with `body` sent as JSON when given. */
export function asBot(bot: { accessKey: string; id: string }, method: string, body?: unknown): RequestInit {
  return {
    method,
    headers: {
      authorization: `Bearer ${bot.accessKey}`,
      'x-bot-id': bot.id,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  };
}
