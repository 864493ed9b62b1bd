/** Audit records (being built). */
export function AuditPage() {
  return (
    <section class="stack">
      <h1>Audit records</h1>
    </section>
  );
}
