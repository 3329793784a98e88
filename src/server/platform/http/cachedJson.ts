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
    return textResponse(this.text, headers);
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

/** JSON text made per request as a response with a route's fixed headers (see headersOf). */
export function textResponse(text: string, headers: Record<string, string> = JSON_HEADERS): Response {
  return new Response(text, { headers: headersOf(headers) });
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
  return joinedResponse(head.openBytes(), [], `${JSON.stringify(name)}:${JSON.stringify(value)}}`, headers);
}

/** Where answers assembled from parts are written (grown to the largest answer; see joinedResponse). */
let scratch = new Uint8Array(16 * 1024);

/** Writes `part` into the scratch buffer at `at`; returns where it ends. */
function put(part: string | Uint8Array, at: number): number {
  if (typeof part !== "string") {
    scratch.set(part, at);
    return at + part.length;
  }
  return at + UTF8.encodeInto(part, scratch.subarray(at)).written;
}

/**
 * A response whose body is `head`, the items separated by commas, then `tail` (UTF-8). Answers made
 * of cached parts are sent as bytes: a string made by concatenation is a rope that Bun flattens and
 * encodes on every answer, and a new buffer per answer costs an allocation of its size. The parts
 * are written into one scratch buffer instead, which the Response copies when it is made (Fetch
 * copies a BufferSource body at construction), so the next answer may reuse it at once.
 */
export function joinedResponse(head: string | Uint8Array, items: readonly Uint8Array[], tail: string | Uint8Array, headers: Record<string, string> = JSON_HEADERS): Response {
  // UTF-8 takes at most 3 bytes per UTF-16 unit.
  let size = (typeof head === "string" ? head.length * 3 : head.length) + (typeof tail === "string" ? tail.length * 3 : tail.length) + items.length;
  for (const item of items) size += item.length;
  if (scratch.length < size) scratch = new Uint8Array(Math.max(size, scratch.length * 2));
  let at = put(head, 0);
  for (let i = 0; i < items.length; i++) {
    if (i) scratch[at++] = COMMA;
    at = put(items[i]!, at);
  }
  at = put(tail, at);
  return new Response(scratch.subarray(0, at), { headers: headersOf(headers) });
}

/** A string as UTF-8 bytes. */
export const utf8 = (text: string): Uint8Array<ArrayBuffer> => UTF8.encode(text);

/**
 * A list's items, each checked against the item schema and serialized once (when its read model is
 * built), for answers that show a slice of them (see listJson).
 */
export class JsonRows<K = number> {
  private wholeText: string | undefined;

  constructor(
    /** Each item's key (a row id), in the list's order. */
    readonly keys: K[],
    /** Each item's JSON as UTF-8. */
    readonly items: Uint8Array[],
  ) {}

  /** The answer showing every item, as text: made once, on first use. */
  whole(field: string): string {
    return (this.wholeText ??= `{"success":true,${JSON.stringify(field)}:[${this.items.map((item) => UTF8_TEXT.decode(item)).join(",")}]}`);
  }
}

const UTF8_TEXT = new TextDecoder();

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
 * `{"success":true,"<field>":[...]}` showing `rows`' items from `from` to `to` (exclusive): the bytes
 * JSON.stringify writes for `{ success: true, [field]: items }`. A slice of every item (the usual
 * answer) is the list's own text, made once; any other slice is assembled from the items' bytes.
 */
export function listJson(field: string, rows: JsonRows<unknown>, from: number, to: number, headers: Record<string, string> = JSON_HEADERS): Response {
  if (from === 0 && to >= rows.items.length) return new Response(rows.whole(field), { headers: headersOf(headers) });
  let head = listHeads.get(field);
  if (!head) listHeads.set(field, (head = UTF8.encode(`{"success":true,${JSON.stringify(field)}:[`)));
  return joinedResponse(head, rows.items.slice(from, to), LIST_TAIL, headers);
}
