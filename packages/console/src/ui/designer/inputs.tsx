import { useEffect, useRef } from 'preact/hooks';
import type { FormField } from '../../form.js';
import { formatNumber } from '../../format.js';
import { type MessageKey, t, wordsOf } from '../../i18n.js';
import { Hint } from '../field.js';
import type { FieldSpec, LinkValue } from './fields.js';

/** What each input gets: the config field's name, how it is shown, and its form field. */
type InputProps<T> = { name: string; spec: FieldSpec; field: FormField<T> };

/** The ids an input is described by: its error (the Admin API's message), then its hint. */
function describedBy(id: string, spec: FieldSpec, error: string | undefined): string | undefined {
  return [error ? `${id}-error` : '', spec.hint ? `${id}-hint` : ''].filter(Boolean).join(' ') || undefined;
}

/** A field's hint and its error message (the Admin API's own words), under the input. */
function Notes({ id, spec, error }: { id: string; spec: FieldSpec; error: string | undefined }) {
  return (
    <>
      <Hint id={`${id}-hint`}>{spec.hint ? t(spec.hint) : undefined}</Hint>
      {error ? (
        <p class="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </>
  );
}

/** A list's words when its spec names none: the suggested questions'. */
const LIST_WORDS = {
  count: 4,
  item: 'designer.question',
  itemInRemove: 'designer.questionLower',
  add: 'designer.addQuestion',
} as const;

/** What an enum's value is shown as: its words in the Console's language, its own name, else the value. */
function optionLabel(spec: FieldSpec, value: string): string {
  if (spec.optionLabels) return wordsOf(spec.optionLabels, value);
  return spec.optionNames && Object.hasOwn(spec.optionNames, value)
    ? (spec.optionNames[value] ?? value)
    : value;
}

/** `#abc` → `#aabbcc`; a colour the picker cannot show → the webchat's default. */
function pickerValue(color: string): string {
  const hex = color.trim();
  if (/^#[0-9a-f]{6}$/i.test(hex)) return hex.toLowerCase();
  if (/^#[0-9a-f]{3}$/i.test(hex)) return `#${[...hex.slice(1)].map((c) => c + c).join('')}`.toLowerCase();
  if (/^#[0-9a-f]{8}$/i.test(hex)) return hex.slice(0, 7).toLowerCase();
  return '#3276ea';
}

/** A text, URL, secret, number or long text field. */
export function TextConfigInput({ name, spec, field }: InputProps<string>) {
  const id = `wc-${name}`;
  const common = {
    id,
    value: field.value,
    maxLength: spec.max,
    'aria-invalid': field.error ? ('true' as const) : undefined,
    'aria-describedby': describedBy(id, spec, field.error),
  };
  return (
    <div class="field">
      <label for={id}>{t(spec.label)}</label>
      {spec.kind === 'long' ? (
        <textarea {...common} rows={4} onInput={(e) => field.onValue(e.currentTarget.value)} />
      ) : (
        <input
          {...common}
          // Text inputs all: the Admin API checks the values and its words are shown, not the browser's.
          type="text"
          inputMode={spec.kind === 'number' ? 'decimal' : spec.kind === 'url' ? 'url' : undefined}
          autocomplete="off"
          spellcheck={spec.kind === 'secret' || spec.kind === 'url' ? false : undefined}
          placeholder={spec.kind === 'url' ? 'https://' : undefined}
          onInput={(e) => field.onValue(e.currentTarget.value)}
        />
      )}
      <Notes id={id} spec={spec} error={field.error} />
    </div>
  );
}

/** The main colour: a colour picker and the HEX code as text, kept together. */
export function ColorConfigInput({ name, spec, field }: InputProps<string>) {
  const id = `wc-${name}`;
  return (
    <div class="field">
      <div class="designer-color">
        <div class="field">
          <label for={id}>{t(spec.label)}</label>
          <input
            id={id}
            type="text"
            value={field.value}
            placeholder="#3276EA"
            autocomplete="off"
            spellcheck={false}
            aria-invalid={field.error ? 'true' : undefined}
            aria-describedby={describedBy(id, spec, field.error)}
            onInput={(e) => field.onValue(e.currentTarget.value)}
          />
        </div>
        <div class="field">
          <label for={`${id}-picker`}>{t('designer.picker')}</label>
          <input
            id={`${id}-picker`}
            type="color"
            value={pickerValue(field.value)}
            onInput={(e) => field.onValue(e.currentTarget.value.toUpperCase())}
          />
        </div>
      </div>
      <Notes id={id} spec={spec} error={field.error} />
    </div>
  );
}

/** An enum: its values, and the default when none is chosen. */
export function EnumConfigInput({ name, spec, field }: InputProps<string>) {
  const id = `wc-${name}`;
  const known = spec.options ?? [];
  // A value saved outside the Console that is not one of the options is shown as it is.
  const options = field.value && !known.includes(field.value) ? [...known, field.value] : known;
  return (
    <div class="field">
      <label for={id}>{t(spec.label)}</label>
      <select
        id={id}
        value={field.value}
        aria-invalid={field.error ? 'true' : undefined}
        aria-describedby={describedBy(id, spec, field.error)}
        onChange={(e) => field.onValue(e.currentTarget.value)}
      >
        <option value="">{t(spec.defaultLabel ?? 'designer.default')}</option>
        {options.map((o) => (
          <option key={o} value={o}>
            {optionLabel(spec, o)}
          </option>
        ))}
      </select>
      <Notes id={id} spec={spec} error={field.error} />
    </div>
  );
}

/** A boolean as a checkbox (unset reads as off, the webchat's default). */
export function BoolConfigInput({ name, spec, field }: InputProps<boolean | undefined>) {
  const id = `wc-${name}`;
  return (
    <div class="field">
      <div class="designer-toggle">
        <input
          id={id}
          type="checkbox"
          checked={field.value === true}
          aria-describedby={describedBy(id, spec, field.error)}
          onChange={(e) => field.onValue(e.currentTarget.checked)}
        />
        <label for={id}>{t(spec.label)}</label>
      </div>
      <Notes id={id} spec={spec} error={field.error} />
    </div>
  );
}

/** A `{title, link}` field: a group of two labelled inputs, its error under both. */
export function LinkConfigInput({ name, spec, field }: InputProps<LinkValue>) {
  const id = `wc-${name}`;
  const described = describedBy(id, spec, field.error);
  const label = t(spec.label);
  // One input of the two; the link's holds a URL (no spell check) and is what the Admin API's message is about.
  const part = (key: keyof LinkValue, words: MessageKey) => {
    const link = key === 'link';
    return (
      <div class="field">
        <label for={`${id}-${key}`}>{t(words, { label })}</label>
        <input
          id={`${id}-${key}`}
          type="text"
          value={field.value[key]}
          autocomplete="off"
          spellcheck={link ? false : undefined}
          aria-invalid={link && field.error ? 'true' : undefined}
          aria-describedby={link ? described : undefined}
          onInput={(e) => field.onValue({ ...field.value, [key]: e.currentTarget.value })}
        />
      </div>
    );
  };
  return (
    <fieldset class="designer-link" aria-describedby={described}>
      <legend>{label}</legend>
      <div class="designer-pair">
        {part('title', 'designer.linkTitle')}
        {part('link', 'designer.linkLink')}
      </div>
      <Notes id={id} spec={spec} error={field.error} />
    </fieldset>
  );
}

/**
 * A list of short texts (the suggested questions): one labelled input per item with its Remove button, and Add
 * under them while fewer than the most the Admin API takes. Adding focuses the new input; removing, the next one
 * (or Add). The Admin API's message shows under the whole list.
 */
export function ListConfigInput({ name, spec, field }: InputProps<string[]>) {
  const id = `wc-${name}`;
  const items = field.value;
  const { count, item: itemWords, itemInRemove, add: addWords } = spec.items ?? LIST_WORDS;
  const described = describedBy(id, spec, field.error);
  // Where focus goes once the list has re-rendered after Add or Remove (the element id).
  const focusNext = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (!focusNext.current) return;
    // Kept until the element is drawn: another render (the preview, a check) may run its effects first.
    const next = document.getElementById(focusNext.current);
    if (!next) return;
    next.focus();
    focusNext.current = undefined;
  });
  const itemId = (index: number) => `${id}-${index + 1}`;
  const add = () => {
    focusNext.current = itemId(items.length);
    field.onValue([...items, '']);
  };
  const remove = (index: number) => {
    const rest = items.filter((_, i) => i !== index);
    focusNext.current = rest.length === 0 ? `${id}-add` : itemId(Math.min(index, rest.length - 1));
    field.onValue(rest);
  };
  return (
    <fieldset class="designer-link" aria-describedby={described}>
      <legend>{t(spec.label)}</legend>
      {items.length > 0 ? (
        <ol class="designer-items">
          {items.map((item, index) => (
            // Items have no identity but their place, which names their inputs too.
            <li key={index} class="field">
              <label for={itemId(index)}>{t(itemWords, { n: formatNumber(index + 1) })}</label>
              <div class="designer-item">
                <input
                  id={itemId(index)}
                  type="text"
                  value={item}
                  maxLength={spec.max}
                  autocomplete="off"
                  aria-invalid={field.error ? 'true' : undefined}
                  aria-describedby={described}
                  onInput={(e) => {
                    const text = e.currentTarget.value;
                    field.onValue(items.map((old, i) => (i === index ? text : old)));
                  }}
                />
                <button type="button" class="quiet" onClick={() => remove(index)}>
                  {t('designer.remove')}
                  <span class="visually-hidden">{t(itemInRemove, { n: formatNumber(index + 1) })}</span>
                </button>
              </div>
            </li>
          ))}
        </ol>
      ) : null}
      <div class="actions designer-list-actions">
        <button id={`${id}-add`} type="button" disabled={items.length >= count} onClick={add}>
          {t(addWords)}
        </button>
        <span class="muted">
          {t('designer.itemsOf', { n: formatNumber(items.length), count: formatNumber(count) })}
        </span>
      </div>
      <Notes id={id} spec={spec} error={field.error} />
    </fieldset>
  );
}
