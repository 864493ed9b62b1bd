import { type DeepKeys, type DeepValue, FormApi } from '@tanstack/form-core';
import { useEffect, useReducer, useState } from 'preact/hooks';

/** What one input of a form needs: its value, how to change it, and the message to show beside it. */
export interface FormField<V> {
  value: V;
  onValue(value: V): void;
  /** The message of the last failed check or of the server's refusal of this field; undefined when none. */
  error: string | undefined;
}

/** A form's state for rendering, with the fields by name. */
export interface Form<T extends object> {
  values: T;
  field<K extends keyof T & string>(name: K): FormField<T[K]>;
  /** Shows `message` beside the field `name` (e.g. the Admin API's own validation message), until it changes. */
  setFieldError(name: keyof T & string, message: string | undefined): void;
  /** Puts every field back to `values` (e.g. after the saved settings are loaded). */
  reset(values: T): void;
  submitting: boolean;
  /** Whether any field differs from the values the form started from (or was last reset to). */
  dirty: boolean;
  /** The `<form onSubmit>` handler: runs the checks, then `onSubmit` with the values. */
  submit(event?: Event): Promise<void>;
}

/**
 * A form on TanStack Form's core (values, per-field messages, submit state). Its Preact adapter declares
 * Preact 10 only, so this small hook binds the core's store to Preact. `validate` answers a message per
 * field that fails (checked on submit); `onSubmit` sends.
 * @example const form = useForm({ name: '' }, async ({ name }) => client.createBot({ name }));
 */
export function useForm<T extends object>(
  defaultValues: T,
  onSubmit: (values: T) => Promise<unknown> | unknown,
  validate?: (values: T) => Partial<Record<keyof T & string, string>> | undefined,
): Form<T> {
  const [form] = useState(
    () =>
      new FormApi<
        T,
        undefined,
        undefined,
        undefined,
        undefined,
        undefined,
        undefined,
        undefined,
        undefined,
        undefined,
        undefined,
        never
      >({
        defaultValues,
      }),
  );
  // The latest handlers, read at submit time (they close over the component's props).
  form.update({
    defaultValues: form.options.defaultValues as T,
    onSubmit: async ({ value }) => {
      await onSubmit(value);
    },
  });
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  useEffect(() => {
    const stop = form.mount();
    const subscription = form.store.subscribe(() => rerender(0));
    return () => {
      subscription.unsubscribe();
      stop();
    };
  }, [form]);

  const state = form.store.state;
  const values = state.values;
  /** The message shown beside field `name` in a form state (the latest, or the one rendered). */
  const messageOf = (fieldMeta: Record<string, unknown>, name: string): string | undefined => {
    const meta = fieldMeta[name] as { errorMap?: Record<string, unknown> } | undefined;
    const message = meta?.errorMap?.onServer ?? meta?.errorMap?.onSubmit;
    return typeof message === 'string' ? message : undefined;
  };
  const serverErrors = (name: string) => messageOf(state.fieldMeta, name);
  const setFieldError = (name: keyof T & string, message: string | undefined) => {
    // form-core names fields by deep keys; ours are the top-level keys of T.
    form.setFieldMeta(
      name as DeepKeys<T>,
      (meta) =>
        ({
          ...(meta ?? {}),
          errorMap: { ...(meta?.errorMap ?? {}), onServer: message },
        }) as typeof meta,
    );
  };
  return {
    values,
    field: (name) => ({
      value: values[name],
      onValue: (value) => {
        form.setFieldValue(name as DeepKeys<T>, value as DeepValue<T, DeepKeys<T>>);
        setFieldError(name, undefined);
      },
      error: serverErrors(name),
    }),
    setFieldError,
    reset: (next) => form.reset(next),
    submitting: state.isSubmitting,
    dirty: state.isDirty,
    async submit(event) {
      event?.preventDefault();
      // A message from the last answer (e.g. the API's refusal) is not a reason to refuse this submit: form-core
      // would not submit while any field carries one, so they are cleared and the server asked again.
      const latest = form.state.fieldMeta as Record<string, unknown>;
      for (const name of Object.keys(latest)) {
        if (messageOf(latest, name) !== undefined) setFieldError(name as keyof T & string, undefined);
      }
      const problems = validate?.(form.state.values);
      if (problems && Object.keys(problems).length > 0) {
        for (const [name, message] of Object.entries(problems))
          setFieldError(name as keyof T & string, message as string);
        return;
      }
      await form.handleSubmit();
    },
  };
}
