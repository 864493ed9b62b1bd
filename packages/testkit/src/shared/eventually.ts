/**
 * Runs `check` until it holds (what it waits for happens in a background job), failing after `timeoutMs`. Between
 * two checks it yields to the event loop, and waits `intervalMs` more when given (a check that costs the server
 * work, such as an API call, should not run back to back). `what` names the event in the timeout's message.
 */
export async function eventually(
  check: () => Promise<boolean>,
  timeoutMs = 30_000,
  intervalMs = 0,
  what?: string,
): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until)
      throw new Error(`timed out after ${timeoutMs} ms${what ? ` waiting for ${what}` : ''}`);
    await new Promise((resolve) =>
      intervalMs > 0 ? setTimeout(resolve, intervalMs) : setImmediate(resolve),
    );
  }
}
