import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { describeError, isSignedOut } from './api.js';
import { useConsole } from './context.js';

/** An action started by a click or a form: its pending state, its failure in words, and `run`. */
export function useAction() {
  const { signedOut } = useConsole();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const run = useCallback(
    async <T>(work: () => Promise<T>): Promise<T | undefined> => {
      setPending(true);
      setError(undefined);
      try {
        return await work();
      } catch (failure) {
        if (isSignedOut(failure)) signedOut();
        else setError(describeError(failure));
        return undefined;
      } finally {
        setPending(false);
      }
    },
    [signedOut],
  );
  return { pending, error, run };
}

/**
 * A form that sends one request on submit: `useAction`'s pending state and failure, `notice`, the words of its
 * last success, and `submit`, the form's handler. `send` makes the request; `done` acts on its answer and
 * answers the notice.
 * @example const { pending, error, notice, submit } = useFormAction(() => client.createBot({ name }), () => 'Created.');
 */
export function useFormAction<T>(send: () => Promise<T>, done: (answer: T) => string) {
  const { pending, error, run } = useAction();
  const [notice, setNotice] = useState<string | undefined>(undefined);
  async function submit(event: Event) {
    event.preventDefault();
    setNotice(undefined);
    const answer = await run(send);
    if (answer === undefined) return;
    setNotice(done(answer));
  }
  return { pending, error, notice, submit };
}

/** Data loaded when the component mounts and whenever `deps` change; `reload()` loads it again. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]) {
  const { signedOut } = useConsole();
  const [state, setState] = useState<{ data?: T; error?: string; loading: boolean }>({ loading: true });
  const [round, setRound] = useState(0);
  const latest = useRef(0);
  useEffect(() => {
    const id = ++latest.current;
    setState((s) => ({ ...s, loading: true }));
    load().then(
      (data) => {
        if (id === latest.current) setState({ data, loading: false });
      },
      (failure) => {
        if (id !== latest.current) return;
        if (isSignedOut(failure)) signedOut();
        else setState({ error: describeError(failure), loading: false });
      },
    );
  }, [...deps, round]);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  return { ...state, reload };
}

/**
 * The signed-in person's own membership of the chosen workspace (their role), loaded with the page: what
 * the role may not do is not offered. `undefined` while loading, or without a workspace.
 */
export function useOwnMember() {
  const { client, workspace } = useConsole();
  return useLoad(
    () => (workspace ? client.getWorkspaceMember() : Promise.resolve(undefined)),
    [client, workspace?.id],
  );
}
