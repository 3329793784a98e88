import { getSchemaValidator, type TSchema } from "elysia";
import { AppError } from "../errors";

const UTF8 = new TextEncoder();
const COMMA = 44;

/** 500: a read model built a value its route's response schema refuses (a bug, never the client's input). */
export class ResponseShapeError extends AppError {
  constructor(what: string) {
    super(500, "INTERNAL_ERROR", `The ${what} response does not match its schema`);
  }
}

/**
 * A response body checked against its route's schema and serialized once, when its read model
 * is (re)built, instead of on every request: the route answers `json.response()`, the same bytes
 * Elysia's own serializer writes for the value, validated by the same schema.
 */
export class CachedJson<T> {
  readonly text: string;
  private open: Uint8Array | undefined;

  constructor(
    readonly value: T,
    text?: string,
  ) {
    this.text = text ?? JSON.stringify(value);
  }

  /** The body as a response; `headers` (the API's, content type included) replace the bare content type. */
  response(headers: Record<string, string> = JSON_HEADERS): Response {
    return new Response(this.text, { headers: headersOf(headers) });
  }

  /** The body without its closing brace (and with a comma when it has fields), as UTF-8: made once. */
  openBytes(): Uint8Array {
    return (this.open ??= UTF8.encode(this.text.length > 2 ? this.text.slice(0, -1) + "," : "{"));
  }
}

const JSON_HEADERS = Object.freeze({ "content-type": "application/json" });
const headerSets = new WeakMap<Record<string, string>, Headers>();

/**
 * A route's fixed headers as one Headers object, made once per object: a response copies it,
 * which costs less than reading a plain object's fields on every answer.
 */
function headersOf(headers: Record<string, string>): Headers {
  let set = headerSets.get(headers);
  if (!set) headerSets.set(headers, (set = new Headers(headers)));
  return set;
}

/** A function that checks a value against `schema` and returns it serialized (the validator is compiled once, on first use: not at start-up). */
export function jsonEncoder<T>(schema: TSchema, what: string): (value: T) => CachedJson<T> {
  let validator: ReturnType<typeof getSchemaValidator> | undefined;
  return (value) => {
    validator ??= getSchemaValidator(schema, {});
    if (!validator!.Check(value)) throw new ResponseShapeError(what);
    return new CachedJson(value);
  };
}

/**
 * JSON text of `head` with one more, per-request last field (`{"a":1}` + timestamp ->
 * `{"a":1,"timestamp":"..."}`): the bytes JSON.stringify writes for `{ ...head, [name]: value }`.
 */
export function withLastField(head: CachedJson<object>, name: string, value: string, headers: Record<string, string> = JSON_HEADERS): Response {
  const open = head.openBytes();
  const last = UTF8.encode(`${JSON.stringify(name)}:${JSON.stringify(value)}}`);
  const body = new Uint8Array(open.length + last.length);
  body.set(open);
  body.set(last, open.length);
  return new Response(body, { headers: headersOf(headers) });
}

/**
 * `head`, the items separated by commas, then `tail`, as one UTF-8 body. Answers assembled from
 * cached parts are sent as bytes: a string made by concatenation is a rope that Bun flattens and
 * encodes again on every answer (several microseconds for a few KB), a copy of bytes is not.
 */
export function joinedBytes(head: Uint8Array, items: readonly Uint8Array[], tail: Uint8Array): Uint8Array<ArrayBuffer> {
  let size = head.length + tail.length + Math.max(items.length - 1, 0);
  for (const item of items) size += item.length;
  const body = new Uint8Array(size);
  body.set(head);
  let at = head.length;
  for (let i = 0; i < items.length; i++) {
    if (i) body[at++] = COMMA;
    body.set(items[i]!, at);
    at += items[i]!.length;
  }
  body.set(tail, at);
  return body;
}

/** A string as UTF-8 bytes. */
export const utf8 = (text: string): Uint8Array<ArrayBuffer> => UTF8.encode(text);

/**
 * A list's items, each checked against the item schema and serialized once (when its read model is
 * built), for answers that show a slice of them: `listJson` writes the slice per request.
 */
export class JsonRows<K = number> {
  constructor(
    /** Each item's key (a row id), in the list's order. */
    readonly keys: K[],
    /** Each item's JSON as UTF-8. */
    readonly items: Uint8Array[],
  ) {}
}

/** A function that checks list items against `itemSchema` and serializes each (the validator compiled on first use). */
export function rowsEncoder<T, K = number>(itemSchema: TSchema, what: string, keyOf: (item: T) => K): (items: T[]) => JsonRows<K> {
  let validator: ReturnType<typeof getSchemaValidator> | undefined;
  return (items) => {
    validator ??= getSchemaValidator(itemSchema, {});
    for (const item of items) if (!validator!.Check(item)) throw new ResponseShapeError(what);
    return new JsonRows(items.map(keyOf), items.map((item) => UTF8.encode(JSON.stringify(item))));
  };
}

const LIST_TAIL = UTF8.encode("]}");
const listHeads = new Map<string, Uint8Array>();

/**
 * `{"success":true,"<field>":[...]}` from serialized items: the bytes JSON.stringify writes for
 * `{ success: true, [field]: items }`.
 */
export function listJson(field: string, items: readonly Uint8Array[], headers: Record<string, string> = JSON_HEADERS): Response {
  let head = listHeads.get(field);
  if (!head) listHeads.set(field, (head = UTF8.encode(`{"success":true,${JSON.stringify(field)}:[`)));
  return new Response(joinedBytes(head, items, LIST_TAIL), { headers: headersOf(headers) });
}
