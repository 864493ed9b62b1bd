import type { Role } from '@parley/client';
import { roleDescription, roleName } from '../roles.js';

/**
 * A labelled select of roles (the label is visible and names the select); with `describe`, what the chosen role
 * may do is said under it (and read with it).
 */
export function RoleSelect({
  id,
  label,
  value,
  roles,
  onRole,
  describe = false,
}: {
  id: string;
  label: string;
  value: Role;
  roles: readonly Role[];
  onRole(role: Role): void;
  describe?: boolean;
}) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select
        id={id}
        value={value}
        aria-describedby={describe ? `${id}-what` : undefined}
        onChange={(event) => onRole(event.currentTarget.value as Role)}
      >
        {roles.map((role) => (
          <option key={role} value={role}>
            {roleName(role)}
          </option>
        ))}
      </select>
      {describe ? (
        <p class="hint role-what" id={`${id}-what`}>
          {roleDescription(value)}
        </p>
      ) : null}
    </div>
  );
}
