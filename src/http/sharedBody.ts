import { stringifyJson } from '../wire/jsonNumber';

// Replies many requests share. The long-polls one payment change wakes all answer from the same status
// read (ChangeHub.read hands every waiter the same object), so their body is shaped once per read and API
// version, and serialised once, instead of once per waiter: 10,000 waiters on one payment cost one body.

/** Bodies marked shared -> their JSON text, once serialised (after any response check has seen them). */
const texts = new WeakMap<object, string | null>();
/** A read's shared bodies by API version. */
const bodies = new WeakMap<object, Map<string, object>>();

/**
 * The body `render` makes from `read`, made once per `read` object and `version` and shared by every
 * reply of that read. `render` must depend on nothing but `read` and `version`, and the body is never
 * changed once made (it is frozen).
 */
export function sharedBody<B extends object>(read: object, version: string, render: () => B): B {
  let byVersion = bodies.get(read);
  if (!byVersion) bodies.set(read, (byVersion = new Map()));
  let body = byVersion.get(version) as B | undefined;
  if (!body) {
    body = Object.freeze(render());
    byVersion.set(version, body);
    texts.set(body, null);
  }
  return body;
}

/** A reply body's JSON text (numbers built from decimals written exactly: src/wire/jsonNumber.ts); a shared body's is made once. */
export function serialise(body: unknown): string {
  if (typeof body !== 'object' || body === null) return JSON.stringify(body);
  const text = texts.get(body);
  if (text === undefined) return stringifyJson(body);
  if (text !== null) return text;
  const made = stringifyJson(body);
  texts.set(body, made);
  return made;
}
