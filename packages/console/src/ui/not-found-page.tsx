/** A Console address that names no page. */
export function NotFoundPage() {
  return (
    <section>
      <h1>Page not found</h1>
      <p>
        Nothing is at this address. Go to <a href="/console/bots">your bots</a>.
      </p>
    </section>
  );
}
