/** A short handbook the knowledge tests index and ask about (vacation, expenses, the Lyon office's hours). */
export const HANDBOOK = `# Acme employee handbook

## Vacation

Every employee receives 25 days of paid vacation per calendar year. Unused vacation days carry over
until March 31 of the following year and are then lost.

## Expenses

Travel expenses are reimbursed within 14 days when the receipts are uploaded to the finance portal.

## Office

The Lyon office opens at 8:30 and closes at 18:00. Visitors sign in at the front desk.
`;
