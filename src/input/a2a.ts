/**
 * A typed, read-only view of the A2A v1.0 objects the verifier reads: Task, Message, Part,
 * Artifact (a2a-wire.md §1).
 *
 * ProtoJSON lets a field arrive under its lowerCamelCase JSON name or its snake_case proto name;
 * SDKs disagree on which wins when both are present, so both present is refused (a parser
 * differential is an attack surface). A Part's content is a oneof: two content members are
 * refused for the same reason. Enum values are accepted by name, or by number with a note.
 * Unknown members are ignored: they never change what gets verified.
 */
import { isJsonObject, member, asSafeInteger, type JsonObject, type JsonValue } from "../json/value.js";
import { joinPath } from "../json/path.js";
import { fail, ok, type Failure, type Ok, type Result } from "../result.js";
import { EXTENSION_URI, TASK_STATES } from "../profile.js";

export interface A2APart {
  readonly path: string;
  readonly content: "text" | "raw" | "url" | "data";
  readonly text?: string;
  readonly raw?: string;
  readonly url?: string;
  readonly data?: JsonValue;
  readonly mediaType?: string;
  readonly filename?: string;
  readonly metadata?: JsonObject;
}

export interface A2AMessage {
  readonly path: string;
  readonly json: JsonObject;
  readonly messageId: string;
  readonly role: string;
  readonly parts: readonly A2APart[];
  readonly metadata?: JsonObject;
  readonly extensions: readonly string[];
}

export interface A2AArtifact {
  readonly path: string;
  readonly artifactId: string;
  readonly name?: string;
  readonly parts: readonly A2APart[];
  readonly metadata?: JsonObject;
  readonly extensions: readonly string[];
}

export interface A2ATask {
  readonly path: string;
  readonly id: string;
  readonly contextId?: string;
  readonly state: string;
  readonly statusMessage?: A2AMessage;
  /** undefined when the Task carries no history member at all (not requested, or not kept). */
  readonly history?: readonly A2AMessage[];
  /** undefined when the Task carries no artifacts member at all. */
  readonly artifacts?: readonly A2AArtifact[];
  readonly metadata?: JsonObject;
  /** `status.metadata`, which A2A v1.0's TaskStatus does not define but some servers send. */
  readonly statusMetadata?: JsonValue;
  /** Observations about the wire form worth reporting (enum numbers, unknown carriers). */
  readonly notes: readonly string[];
}

const ROLES = ["ROLE_UNSPECIFIED", "ROLE_USER", "ROLE_AGENT"] as const;

const SNAKE = new Map<string, string>();
/** The proto name of a JSON name; the verifier reads a few dozen names, so each is made once. */
function snakeCase(camel: string): string {
  let snake = SNAKE.get(camel);
  if (snake === undefined) SNAKE.set(camel, (snake = camel.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)));
  return snake;
}

/** What fieldValue gives for a field present under both its names; no JSON value is a symbol. */
const BOTH: unique symbol = Symbol("both names present");

/** A field's value under its JSON name or its proto name, or BOTH. */
function fieldValue(obj: JsonObject, name: string): JsonValue | undefined | typeof BOTH {
  const snake = snakeCase(name);
  const camelValue = member(obj, name);
  if (snake === name) return camelValue;
  const snakeValue = member(obj, snake);
  if (camelValue !== undefined && snakeValue !== undefined) return BOTH;
  return camelValue ?? snakeValue;
}

function bothPresent(name: string, path: string): Failure {
  return fail("INPUT_A2A_MALFORMED", `both "${name}" and "${snakeCase(name)}" are present`, joinPath(path, name));
}

/** Reads a field under its JSON name or its proto name; both present is malformed. */
export function field(obj: JsonObject, name: string, path: string): Result<JsonValue | undefined> {
  const v = fieldValue(obj, name);
  return v === BOTH ? bothPresent(name, path) : ok(v);
}

const NONE: Ok<undefined> = ok(undefined);

function stringField(obj: JsonObject, name: string, path: string, required: boolean): Result<string | undefined> {
  const v = fieldValue(obj, name);
  if (v === BOTH) return bothPresent(name, path);
  if (v === undefined || v === null) {
    return required ? fail("INPUT_A2A_MALFORMED", `"${name}" is required`, joinPath(path, name)) : NONE;
  }
  if (typeof v !== "string") return fail("INPUT_A2A_MALFORMED", `"${name}" must be a string`, joinPath(path, name));
  return ok(v);
}

function objectField(obj: JsonObject, name: string, path: string): Result<JsonObject | undefined> {
  const v = fieldValue(obj, name);
  if (v === BOTH) return bothPresent(name, path);
  if (v === undefined || v === null) return NONE;
  if (!isJsonObject(v)) return fail("INPUT_A2A_MALFORMED", `"${name}" must be an object`, joinPath(path, name));
  return ok(v);
}

function arrayField(obj: JsonObject, name: string, path: string): Result<JsonValue[] | undefined> {
  const v = fieldValue(obj, name);
  if (v === BOTH) return bothPresent(name, path);
  if (v === undefined || v === null) return NONE;
  if (!Array.isArray(v)) return fail("INPUT_A2A_MALFORMED", `"${name}" must be an array`, joinPath(path, name));
  return ok(v);
}

function stringList(obj: JsonObject, name: string, path: string): Result<string[]> {
  const r = arrayField(obj, name, path);
  if (!r.ok) return r;
  const out: string[] = [];
  const list = r.value ?? [];
  for (let i = 0; i < list.length; i++) {
    const v = list[i];
    if (typeof v !== "string")
      return fail("INPUT_A2A_MALFORMED", `"${name}" must hold strings`, joinPath(path, name, i));
    out.push(v);
  }
  return ok(out);
}

/** An enum by name, or by number (ProtoJSON parsers accept both; a number is noted). */
function enumField(
  obj: JsonObject,
  name: string,
  path: string,
  names: readonly string[],
  notes: string[],
): Result<string | undefined> {
  const v = fieldValue(obj, name);
  if (v === BOTH) return bothPresent(name, path);
  if (v === undefined || v === null) return NONE;
  if (typeof v === "string") return ok(v);
  const n = asSafeInteger(v);
  if (n !== undefined && n >= 0 && n < names.length) {
    notes.push(`${joinPath(path, name)}: enum given as number ${n}, read as ${names[n]}`);
    return ok(names[n]);
  }
  return fail("INPUT_A2A_MALFORMED", `"${name}" must be an enum name`, joinPath(path, name));
}

const PART_CONTENT = ["text", "raw", "url", "data"] as const;

export function readPart(v: JsonValue, path: string): Result<A2APart> {
  if (!isJsonObject(v)) return fail("INPUT_A2A_MALFORMED", "a Part must be an object", path);
  const present: (typeof PART_CONTENT)[number][] = [];
  for (const k of PART_CONTENT) {
    const m = member(v, k);
    if (m !== undefined && m !== null) present.push(k);
  }
  // `data` is a google.protobuf.Value, whose JSON null is the null value, not "unset": beside
  // another member it is a second oneof member, which ProtoJSON parsers refuse and a2a-js skips.
  if (present.length === 1 && present[0] !== "data" && member(v, "data") === null) {
    return fail(
      "INPUT_A2A_MALFORMED",
      `a Part has one content member; this one has ${present[0]} and data (null)`,
      path,
    );
  }
  if (present.length > 1) {
    return fail("INPUT_A2A_MALFORMED", `a Part has one content member; this one has ${present.join(" and ")}`, path);
  }
  if (present.length === 0) {
    return fail("INPUT_A2A_MALFORMED", "a Part needs one of text, raw, url or data", path);
  }
  const content = present[0] as A2APart["content"];
  const value = member(v, content) as JsonValue;
  if (content !== "data" && typeof value !== "string") {
    return fail("INPUT_A2A_MALFORMED", `"${content}" must be a string`, joinPath(path, content));
  }
  const mediaType = stringField(v, "mediaType", path, false);
  if (!mediaType.ok) return mediaType;
  const filename = stringField(v, "filename", path, false);
  if (!filename.ok) return filename;
  const metadata = objectField(v, "metadata", path);
  if (!metadata.ok) return metadata;
  // Built member by member, in this order (reports show Parts as read): spreading a computed
  // member would make V8 keep the object as a dictionary, slow to read for every check after.
  const part: { -readonly [K in keyof A2APart]?: A2APart[K] } = { path, content };
  if (content === "data") part.data = value;
  else part[content] = value as string;
  if (mediaType.value !== undefined) part.mediaType = mediaType.value;
  if (filename.value !== undefined) part.filename = filename.value;
  if (metadata.value !== undefined) part.metadata = metadata.value;
  return ok(part as A2APart);
}

function readParts(obj: JsonObject, path: string): Result<A2APart[]> {
  const arr = arrayField(obj, "parts", path);
  if (!arr.ok) return arr;
  if (arr.value === undefined) return fail("INPUT_A2A_MALFORMED", '"parts" is required', joinPath(path, "parts"));
  const parts: A2APart[] = [];
  for (let i = 0; i < arr.value.length; i++) {
    const r = readPart(arr.value[i] as JsonValue, joinPath(path, "parts", i));
    if (!r.ok) return r;
    parts.push(r.value);
  }
  return ok(parts);
}

/** What Messages and Artifacts share: parts, metadata and the extensions list. */
interface Content {
  readonly parts: readonly A2APart[];
  readonly metadata?: JsonObject;
  readonly extensions: readonly string[];
}

/**
 * Reads the Content of `v` onto `into` (after what it already holds), member by member: spreading
 * it, or a conditional member, makes V8 copy objects that are read for every check after.
 */
function readContent<T extends object>(v: JsonObject, path: string, into: T): Result<T & Content> {
  const parts = readParts(v, path);
  if (!parts.ok) return parts;
  const metadata = objectField(v, "metadata", path);
  if (!metadata.ok) return metadata;
  const extensions = stringList(v, "extensions", path);
  if (!extensions.ok) return extensions;
  const out = into as { -readonly [K in keyof Content]?: Content[K] };
  out.parts = parts.value;
  if (metadata.value !== undefined) out.metadata = metadata.value;
  out.extensions = extensions.value;
  return ok(into as T & Content);
}

export function readMessage(v: JsonValue, path: string, notes: string[]): Result<A2AMessage> {
  if (!isJsonObject(v)) return fail("INPUT_A2A_MALFORMED", "a Message must be an object", path);
  const messageId = stringField(v, "messageId", path, true);
  if (!messageId.ok) return messageId;
  const role = enumField(v, "role", path, ROLES, notes);
  if (!role.ok) return role;
  // Read from the JSON where needed (a resumption's binding, a spliced Message); refused here
  // when both spellings are present, like every other field, so no reader can pick the other one.
  for (const name of ["taskId", "contextId"]) {
    const ids = stringField(v, name, path, false);
    if (!ids.ok) return ids;
  }
  return readContent(v, path, {
    path,
    json: v,
    messageId: messageId.value as string,
    role: role.value ?? "ROLE_UNSPECIFIED",
  });
}

export function readArtifact(v: JsonValue, path: string): Result<A2AArtifact> {
  if (!isJsonObject(v)) return fail("INPUT_A2A_MALFORMED", "an Artifact must be an object", path);
  const artifactId = stringField(v, "artifactId", path, true);
  if (!artifactId.ok) return artifactId;
  const name = stringField(v, "name", path, false);
  if (!name.ok) return name;
  const artifact: { path: string; artifactId: string; name?: string } = {
    path,
    artifactId: artifactId.value as string,
  };
  if (name.value !== undefined) artifact.name = name.value;
  return readContent(v, path, artifact);
}

/** True when the object has the identifying members of a Message (`messageId`, `role`, `parts`). */
export function looksLikeMessage(v: JsonValue | undefined): v is JsonObject {
  return (
    isJsonObject(v) &&
    typeof member(v, "messageId") === "string" &&
    member(v, "role") !== undefined &&
    Array.isArray(member(v, "parts"))
  );
}

/** True when the object has the identifying members of a Task (`id` and an object `status`). */
export function looksLikeTask(v: JsonValue | undefined): v is JsonObject {
  return isJsonObject(v) && typeof member(v, "id") === "string" && isJsonObject(member(v, "status"));
}

export function readTask(v: JsonValue, path: string): Result<A2ATask> {
  if (!isJsonObject(v)) return fail("INPUT_A2A_MALFORMED", "a Task must be an object", path);
  const notes: string[] = [];
  const id = stringField(v, "id", path, true);
  if (!id.ok) return id;
  const contextId = stringField(v, "contextId", path, false);
  if (!contextId.ok) return contextId;
  const status = objectField(v, "status", path);
  if (!status.ok) return status;
  if (status.value === undefined) return fail("INPUT_A2A_MALFORMED", '"status" is required', joinPath(path, "status"));
  const statusPath = joinPath(path, "status");
  const state = enumField(status.value, "state", statusPath, TASK_STATES, notes);
  if (!state.ok) return state;
  if (state.value !== undefined && !(TASK_STATES as readonly string[]).includes(state.value)) {
    return fail(
      "INPUT_A2A_MALFORMED",
      `unknown task state ${JSON.stringify(state.value)}`,
      joinPath(statusPath, "state"),
    );
  }
  let statusMessage: A2AMessage | undefined;
  const sm = member(status.value, "message");
  if (sm !== undefined && sm !== null) {
    const r = readMessage(sm, joinPath(statusPath, "message"), notes);
    if (!r.ok) return r;
    statusMessage = r.value;
  }
  const statusMetadata = member(status.value, "metadata");
  if (statusMetadata !== undefined) {
    notes.push(
      `${joinPath(statusPath, "metadata")}: TaskStatus has no metadata field in A2A v1.0 (non-standard placement)`,
    );
  }
  const historyArr = arrayField(v, "history", path);
  if (!historyArr.ok) return historyArr;
  let history: A2AMessage[] | undefined;
  if (historyArr.value !== undefined) {
    history = [];
    for (let i = 0; i < historyArr.value.length; i++) {
      const r = readMessage(historyArr.value[i] as JsonValue, joinPath(path, "history", i), notes);
      if (!r.ok) return r;
      history.push(r.value);
    }
  }
  const artifactArr = arrayField(v, "artifacts", path);
  if (!artifactArr.ok) return artifactArr;
  let artifacts: A2AArtifact[] | undefined;
  if (artifactArr.value !== undefined) {
    artifacts = [];
    for (let i = 0; i < artifactArr.value.length; i++) {
      const r = readArtifact(artifactArr.value[i] as JsonValue, joinPath(path, "artifacts", i));
      if (!r.ok) return r;
      artifacts.push(r.value);
    }
  }
  const metadata = objectField(v, "metadata", path);
  if (!metadata.ok) return metadata;
  const task: { -readonly [K in keyof A2ATask]?: A2ATask[K] } = { path, id: id.value as string };
  if (contextId.value !== undefined) task.contextId = contextId.value;
  task.state = state.value ?? "TASK_STATE_UNSPECIFIED";
  if (statusMessage) task.statusMessage = statusMessage;
  if (history) task.history = history;
  if (artifacts) task.artifacts = artifacts;
  if (metadata.value !== undefined) task.metadata = metadata.value;
  if (statusMetadata !== undefined) task.statusMetadata = statusMetadata;
  task.notes = notes;
  return ok(task as A2ATask);
}

/** The text a commitment covers: the Message's or Artifact's text parts joined with "\n". */
export function textOfParts(parts: readonly A2APart[]): { text: string; textParts: number; otherParts: number } {
  const texts: string[] = [];
  let other = 0;
  for (const p of parts) {
    if (p.content === "text") texts.push(p.text as string);
    else other++;
  }
  return { text: texts.join("\n"), textParts: texts.length, otherParts: other };
}

/** `metadata[uri]` of a Task, Message or Artifact (default: the evidence extension's key). */
export function extensionMetadata(
  holder: { readonly metadata?: JsonObject } | undefined,
  uri: string = EXTENSION_URI,
): JsonValue | undefined {
  return holder?.metadata ? member(holder.metadata, uri) : undefined;
}
