/** Usage (being built). */
export function UsagePage() {
  return (
    <section class="stack">
      <h1>Usage</h1>
    </section>
  );
}
