/**
 * The registry of input forms: the encodings an input's bytes can take, detected by content, each
 * with the decoder that turns it into what the classifier reads (./decoded.ts). ./decode.ts tries
 * them in order; bytes no form claims are a JSON document (./document.ts).
 *
 * A new form is one decoder file (detect: cheap, from the first bytes, never true for JSON text;
 * decode: the bytes to a JSON document with notes, or to events folded by ./stream/fold.ts) and one
 * row here (docs/architecture.md, "Adding an input form").
 */
import { ok, type Result } from "../result.js";
import { decodedDocument, type InputValue } from "./decoded.js";
import { decodeJsonText } from "./document.js";
import { decodeProtobufInput, isDecodedProtobuf, looksLikeProtobuf } from "./protobuf/input.js";
import { withBinaryNotes } from "./protobuf/notes.js";
import { unseenIn, withUnseen } from "./protobuf/unseen.js";
import { foldStream, looksLikeStream } from "./stream/framing.js";

export interface InputForm {
  /** What the form is, as the docs name it. */
  readonly name: string;
  /** True when the bytes are in this form. */
  readonly detect: (b: Uint8Array | string) => boolean;
  /** The bytes, decoded; an input error naming the offset or event at fault. */
  readonly decode: (b: Uint8Array | string) => Result<InputValue>;
}

/**
 * A binary input: a gRPC stream folds; a Task or SendMessageResponse is the JSON document its
 * ProtoJSON is, still carrying the unknown fields skipped inside committed content (contract §3.1).
 */
function decodeProtobuf(b: Uint8Array): Result<InputValue> {
  const r = decodeProtobufInput(b);
  if (!r.ok) return r;
  const v = r.value;
  if (!isDecodedProtobuf(v)) return ok(v);
  const document = withBinaryNotes(decodedDocument(v.form, v.value, v.notes), v.notes);
  const unseen = unseenIn(v);
  return ok(unseen ? withUnseen(document, unseen) : document);
}

/** Tried in order; the first whose `detect` holds decodes the input. */
export const INPUT_FORMS: readonly InputForm[] = [
  { name: "SSE body or NDJSON (a2a-wire.md §2.7)", detect: looksLikeStream, decode: (b) => foldStream(b) },
  {
    name: "protobuf: a gRPC message or stream (contract §3.1)",
    detect: (b) => b instanceof Uint8Array && looksLikeProtobuf(b),
    decode: (b) => decodeProtobuf(b as Uint8Array),
  },
];

/** What bytes no form claims are. */
export const JSON_DOCUMENT: InputForm = { name: "JSON document", detect: () => true, decode: decodeJsonText };
