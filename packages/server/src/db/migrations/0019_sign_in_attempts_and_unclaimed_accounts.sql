-- Sign-in throttling and invitation squatting (security issue #31, findings 5 and 8). `sign_in_failures.attempt`:
-- an attempt's rows are written (reserved) before its password is checked, so concurrent attempts cannot
-- overrun the limits, and a success takes back exactly its own rows. `accounts.unclaimed_via`: the workspace
-- whose invitation made the account, while nobody has signed into it (an invitation from another workspace
-- may then reset it); existing accounts are claimed.

alter table sign_in_failures add column attempt text;
create index sign_in_failures_attempt on sign_in_failures (attempt);
alter table accounts add column unclaimed_via text;
