import type { Role } from '@parley/client';
import { roleName } from '../roles.js';

/** A labelled select of roles (the label is visible and names the select). */
export function RoleSelect({
  id,
  label,
  value,
  roles,
  onRole,
}: {
  id: string;
  label: string;
  value: Role;
  roles: readonly Role[];
  onRole(role: Role): void;
}) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select id={id} value={value} onChange={(event) => onRole(event.currentTarget.value as Role)}>
        {roles.map((role) => (
          <option key={role} value={role}>
            {roleName(role)}
          </option>
        ))}
      </select>
    </div>
  );
}
