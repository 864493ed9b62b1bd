/** A failure (announced at once) or a confirmation (announced politely), in words; nothing when empty. */
export function Notice({ error, done }: { error?: string | undefined; done?: string | undefined }) {
  if (error) {
    return (
      <p class="notice notice-error" role="alert">
        {error}
      </p>
    );
  }
  if (done) {
    return (
      <p class="notice notice-done" role="status">
        {done}
      </p>
    );
  }
  return null;
}
