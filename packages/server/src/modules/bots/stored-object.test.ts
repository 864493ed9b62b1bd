import { describe, expect, it } from 'vitest';
import { handoffOf } from './handoff-settings.js';
import { repliesOf } from './replies.js';
import { storedObject } from './stored-object.js';

describe('a bot setting stored as a JSON object', () => {
  it('reads the fields of an object', () => {
    expect(storedObject('{"notFound":"Sorry","waitSeconds":60}')).toEqual({
      notFound: 'Sorry',
      waitSeconds: 60,
    });
  });

  it.each([
    ['no value', null],
    ['an empty column', undefined],
    ['unreadable JSON', '{"notFound":'],
    ['null', 'null'],
    ['a number', '42'],
    ['a string', '"Sorry"'],
    ['an array', '["Sorry"]'],
  ])('reads %s as no setting: default replies, default handoff', (_what, stored) => {
    expect(storedObject(stored)).toEqual({});
    expect(repliesOf(stored)).toEqual({});
    expect(handoffOf(stored)).toEqual({});
  });
});
