/**
 * The few A2A v1.0 messages the verifier reads from protobuf, as tables: field number → ProtoJSON
 * name and type. The numbers are those of the official `a2a.proto` (package `lf.a2a.v1`), as the
 * `@a2a-js/sdk` generated code encodes them. Fields the verifier does not read stay out of the
 * tables: they are unknown fields, noted and skipped (or refused inside committed content).
 */
import { TASK_STATES } from "../../profile.js";

/** Scalars, and the well-known types decoded by hand. */
export type ScalarType = "string" | "bytes" | "bool" | "Struct" | "Value" | "Timestamp";

export interface EnumSpec {
  readonly name: string;
  /** Index = enum number. */
  readonly values: readonly string[];
}

export interface FieldSpec {
  /** The ProtoJSON (lowerCamelCase) name. */
  readonly name: string;
  readonly type: ScalarType | EnumSpec | MessageSpec;
  readonly repeated?: true;
  /** The oneof this field belongs to: oneof members are printed even when default. */
  readonly oneof?: string;
}

export interface MessageSpec {
  readonly name: string;
  /** In field-number order: the order ProtoJSON prints them. */
  readonly fields: ReadonlyMap<number, FieldSpec>;
  /**
   * Content the evidence commits to (Message, Part, Artifact): an unknown field in it or below it
   * is refused, since it could be content the verifier would not see.
   */
  readonly committed?: true;
}

function message(name: string, fields: [number, FieldSpec][], committed?: true): MessageSpec {
  return { name, fields: new Map(fields), ...(committed ? { committed } : {}) };
}

/** TASK_STATES lists the states in proto number order (a2a-wire.md §1.3). */
export const TASK_STATE: EnumSpec = { name: "TaskState", values: TASK_STATES };

export const ROLE: EnumSpec = { name: "Role", values: ["ROLE_UNSPECIFIED", "ROLE_USER", "ROLE_AGENT"] };

export const PART = message(
  "Part",
  [
    [1, { name: "text", type: "string", oneof: "content" }],
    [2, { name: "raw", type: "bytes", oneof: "content" }],
    [3, { name: "url", type: "string", oneof: "content" }],
    [4, { name: "data", type: "Value", oneof: "content" }],
    [5, { name: "metadata", type: "Struct" }],
    [6, { name: "filename", type: "string" }],
    [7, { name: "mediaType", type: "string" }],
  ],
  true,
);

export const MESSAGE = message(
  "Message",
  [
    [1, { name: "messageId", type: "string" }],
    [2, { name: "contextId", type: "string" }],
    [3, { name: "taskId", type: "string" }],
    [4, { name: "role", type: ROLE }],
    [5, { name: "parts", type: PART, repeated: true }],
    [6, { name: "metadata", type: "Struct" }],
    [7, { name: "extensions", type: "string", repeated: true }],
    [8, { name: "referenceTaskIds", type: "string", repeated: true }],
  ],
  true,
);

export const ARTIFACT = message(
  "Artifact",
  [
    [1, { name: "artifactId", type: "string" }],
    [2, { name: "name", type: "string" }],
    [3, { name: "description", type: "string" }],
    [4, { name: "parts", type: PART, repeated: true }],
    [5, { name: "metadata", type: "Struct" }],
    [6, { name: "extensions", type: "string", repeated: true }],
  ],
  true,
);

export const TASK_STATUS = message("TaskStatus", [
  [1, { name: "state", type: TASK_STATE }],
  [2, { name: "message", type: MESSAGE }],
  [3, { name: "timestamp", type: "Timestamp" }],
]);

export const TASK = message("Task", [
  [1, { name: "id", type: "string" }],
  [2, { name: "contextId", type: "string" }],
  [3, { name: "status", type: TASK_STATUS }],
  [4, { name: "artifacts", type: ARTIFACT, repeated: true }],
  [5, { name: "history", type: MESSAGE, repeated: true }],
  [6, { name: "metadata", type: "Struct" }],
]);

export const TASK_STATUS_UPDATE_EVENT = message("TaskStatusUpdateEvent", [
  [1, { name: "taskId", type: "string" }],
  [2, { name: "contextId", type: "string" }],
  [3, { name: "status", type: TASK_STATUS }],
  [4, { name: "metadata", type: "Struct" }],
]);

export const TASK_ARTIFACT_UPDATE_EVENT = message("TaskArtifactUpdateEvent", [
  [1, { name: "taskId", type: "string" }],
  [2, { name: "contextId", type: "string" }],
  [3, { name: "artifact", type: ARTIFACT }],
  [4, { name: "append", type: "bool" }],
  [5, { name: "lastChunk", type: "bool" }],
  [6, { name: "metadata", type: "Struct" }],
]);

export const SEND_MESSAGE_RESPONSE = message("SendMessageResponse", [
  [1, { name: "task", type: TASK, oneof: "payload" }],
  [2, { name: "message", type: MESSAGE, oneof: "payload" }],
]);

export const STREAM_RESPONSE = message("StreamResponse", [
  [1, { name: "task", type: TASK, oneof: "payload" }],
  [2, { name: "message", type: MESSAGE, oneof: "payload" }],
  [3, { name: "statusUpdate", type: TASK_STATUS_UPDATE_EVENT, oneof: "payload" }],
  [4, { name: "artifactUpdate", type: TASK_ARTIFACT_UPDATE_EVENT, oneof: "payload" }],
]);
