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

/**
 * `bytes` uploaded as `key` through the Files API at `baseUrl` as the bot, as any user of it would: upsertFile
 * (with `fields` besides, such as `index: true`), then the bytes PUT to its uploadUrl. Throws when either step
 * fails; answers the file's id.
 */
export async function uploadAsBot(
  baseUrl: string,
  bot: { accessKey: string; id: string },
  key: string,
  bytes: Buffer,
  fields: Record<string, unknown> = {},
): Promise<string> {
  const upsert = await fetch(
    `${baseUrl}/v1/files`,
    asBot(bot, 'PUT', { key, size: bytes.byteLength, ...fields }),
  );
  if (!upsert.ok) throw new Error(`upsertFile of ${key}: ${upsert.status} ${await upsert.text()}`);
  const { file } = (await upsert.json()) as { file: { id: string; uploadUrl: string; contentType: string } };
  const put = await fetch(file.uploadUrl, {
    method: 'PUT',
    headers: { 'content-type': file.contentType },
    body: bytes,
  });
  if (!put.ok) throw new Error(`upload of ${key}: ${put.status} ${await put.text()}`);
  return file.id;
}
