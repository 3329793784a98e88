import { getSchemaValidator, type TSchema } from "elysia";
import { AppError } from "../errors";

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

  constructor(
    readonly value: T,
    text?: string,
  ) {
    this.text = text ?? JSON.stringify(value);
  }

  /** The body as a response; `headers` (the API's, content type included) replace the bare content type. */
  response(headers: Record<string, string> = JSON_HEADERS): Response {
    return new Response(this.text, { headers });
  }
}

const JSON_HEADERS = Object.freeze({ "content-type": "application/json" });

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
  const open = head.text.length > 2 ? head.text.slice(0, -1) + "," : "{";
  return new Response(`${open}${JSON.stringify(name)}:${JSON.stringify(value)}}`, { headers });
}
