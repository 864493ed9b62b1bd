/** Workspace settings (being built). */
export function SettingsPage() {
  return (
    <section class="stack">
      <h1>Workspace settings</h1>
    </section>
  );
}
