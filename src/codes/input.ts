/** Failure codes of input loading: shapes, carriers, bundle location. All of them exit 2, except INPUT_EVIDENCE_PENDING (3). */
export const INPUT_CODES = [
  /** The input could not be read (missing file, permission, a directory, too large to read). */
  "INPUT_UNREADABLE",
  /** A JSON-RPC 2.0 error response: the server returned no Task. */
  "INPUT_JSONRPC_ERROR",
  /** A JSON-RPC request was given where a response was expected. */
  "INPUT_JSONRPC_REQUEST",
  /** An HTTP+JSON (google.rpc.Status) error body. */
  "INPUT_REST_ERROR",
  /** An A2A v0.3-shaped object; this verifier checks v1.0 wire shapes. */
  "INPUT_A2A_V03",
  /** The JSON is none of the shapes the verifier understands (for `merge`: not a JSON report of a2a-evidence). */
  "INPUT_UNKNOWN_SHAPE",
  /** An A2A object violates the v1.0 wire rules (two oneof members, camel and snake spellings of one field, wrong type). */
  "INPUT_A2A_MALFORMED",
  /** No evidence bundle was found anywhere in the input. */
  "INPUT_NO_EVIDENCE",
  /** A raw part is not strict standard base64. */
  "INPUT_BUNDLE_BASE64",
  /** A decoded bundle is larger than the bundle limit. */
  "INPUT_BUNDLE_TOO_LARGE",
  /** A decoded bundle is not strict JSON (the detail names the JSON fault). */
  "INPUT_BUNDLE_NOT_JSON",
  /** A bundle is not a JSON object. */
  "INPUT_BUNDLE_NOT_OBJECT",
  /** --task / --first-task does not hold a Task. */
  "INPUT_NOT_A_TASK",
  /** The input and --task both supply the observed Task. */
  "INPUT_CONFLICTING_TASK",
  /** Verifying the input raised an unexpected error: reported as this input's error, never thrown. */
  "VERIFY_INTERNAL_ERROR",
  /** A stream (SSE, NDJSON, JSON array of events) whose framing or events break the A2A stream rules. */
  "INPUT_STREAM_MALFORMED",
  /** A stream event is out of order: not a Task or Message first, after a terminal state or a Message, an append to an artifact not sent or already closed. */
  "INPUT_STREAM_ORDER",
  /** A stream event names another Task, context or JSON-RPC request than the stream's. */
  "INPUT_STREAM_FOREIGN_EVENT",
  /** A stream carries an error event (JSON-RPC error, `event: error`, google.rpc.Status). */
  "INPUT_STREAM_ERROR",
  /** A stream ends before a terminal or interrupted state, or mid-event. */
  "INPUT_STREAM_TRUNCATED",
  /** A stream exceeds the input size, the event count or one event's size limit. */
  "INPUT_STREAM_TOO_LARGE",
  /** The stream is a direct Message reply: there is no Task to verify. */
  "INPUT_STREAM_MESSAGE",
  /** The Task has not ended (it waits in an interrupted state) and says its evidence is PENDING: exit 3, not 2. */
  "INPUT_EVIDENCE_PENDING",
  /** An --interim input (or a capture's interimBundles) holds no bundle. */
  "INPUT_INTERIM_NO_BUNDLE",
  /** A protobuf (gRPC) input breaks the wire format: wrong wire type, truncated or over-long varint, a length past the end, field 0, a group, a frame flag other than 0 or 1. */
  "INPUT_PROTOBUF_MALFORMED",
  /** A protobuf singular field, oneof, Struct member or Value kind given twice. */
  "INPUT_PROTOBUF_DUPLICATE",
  /** A protobuf string field that is not valid UTF-8. */
  "INPUT_PROTOBUF_UTF8",
  /** A protobuf enum number the verifier does not know (TaskState, Role, NullValue). */
  "INPUT_PROTOBUF_ENUM",
  /** A protobuf value ProtoJSON cannot carry: a bool not 0/1, a non-finite number, a Value with no kind, a Timestamp out of range. */
  "INPUT_PROTOBUF_VALUE",
  /** A protobuf input nested deeper than the JSON limit, over the input size, or a gRPC message over the message limit. */
  "INPUT_PROTOBUF_TOO_LARGE",
  /** A gRPC stream message with the compressed flag set. */
  "INPUT_GRPC_COMPRESSED",
] as const;
export type InputCode = (typeof INPUT_CODES)[number];
