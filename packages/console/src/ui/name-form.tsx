import { useState } from 'preact/hooks';
import { useConsole } from '../context.js';
import { useFormAction } from '../hooks.js';
import { Field } from './field.js';
import { Notice } from './notice.js';

/** Changes the account's display name (what teammates see in members and audit records). */
export function NameForm() {
  const { account, client, accountChanged } = useConsole();
  const [name, setName] = useState(account.displayName);
  const { pending, error, notice, submit } = useFormAction(
    () => client.updateAccount({ displayName: name.trim() }),
    (answer) => {
      accountChanged(answer.account);
      return 'Name saved.';
    },
  );

  return (
    <form class="card stack" onSubmit={submit}>
      <h2>Your name</h2>
      <Field
        id="account-name"
        label="Name"
        required
        maxLength={200}
        autocomplete="name"
        value={name}
        onValue={setName}
      />
      <div class="actions">
        <button
          type="submit"
          class="primary"
          disabled={pending || name.trim() === '' || name.trim() === account.displayName}
        >
          Save name
        </button>
      </div>
      <Notice error={error} done={notice} />
    </form>
  );
}
