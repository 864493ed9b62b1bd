-- What a bot reply records of how it was made (modules/chat, written by the chat reply job): `answer`, the
-- reply's answer mode (`not_found` when the knowledge base had nothing: the Console's "Not answered" and
-- insights read it), and `details`, the retrieval details of its `debug` signal as JSON (Admin API only,
-- kept as long as the message, unlike signals). Earlier not-found replies are marked from their text.

alter table chat_messages add column answer text;
alter table chat_messages add column details text;

update chat_messages set answer = 'not_found' where is_bot = 1
  and payload = '{"type":"text","text":"I couldn''t find anything about that in my knowledge base."}';
