/**
 * The folded Task's artifacts, as a stream's events build them: the first Task's artifacts, then
 * each `artifactUpdate` (added, replaced by `artifactId`, or with `append: true` its parts
 * concatenated onto the artifact already sent) and each later Task's artifacts (merged by
 * `artifactId`). An append to an artifact never sent, an append after its last chunk, a rename
 * halfway and an update to an id the Task carries twice are refused. Appends push onto the
 * artifact's part list in place: the cost is linear in the input.
 */
import { joinPath } from "../../json/path.js";
import { isJsonObject, jsonEquals, member, newJsonObject, type JsonObject, type JsonValue } from "../../json/value.js";
import { fail, ok, type Failure, type Result } from "../../result.js";
import type { StreamWatch } from "../stream-observations.js";
import { capped, label, type Where } from "./event.js";
import { withId } from "./members.js";

interface ChunkState {
  /** An append or `lastChunk: false` left the artifact waiting for more. */
  open: boolean;
  /** The event whose `lastChunk: true` closed it. */
  closedAt?: number;
}

const isEmpty = (v: JsonValue | undefined) =>
  v === undefined || v === null || v === "" || (Array.isArray(v) && v.length === 0);

/** Reads an artifact's id and checks its parts list, which appends extend in place. */
function artifactOf(
  v: JsonValue | undefined,
  path: string,
  w: Where,
): Result<{ artifact: JsonObject; id: string; parts: JsonValue[] }> {
  const a = withId(v, "artifactId", "an artifact", path, w);
  if (!a.ok) return a;
  const { object: artifact, id } = a.value;
  const parts = member(artifact, "parts");
  if (!Array.isArray(parts))
    return fail(
      "INPUT_STREAM_MALFORMED",
      `${label(w)}: artifact ${JSON.stringify(id)} needs a "parts" array`,
      joinPath(path, "parts"),
    );
  return ok({ artifact, id, parts });
}

function ambiguousArtifact(id: string, path: string, w: Where): Failure {
  return fail(
    "INPUT_STREAM_MALFORMED",
    `${label(w)} updates artifact ${JSON.stringify(id)}, which the Task carries twice: which one it updates is ambiguous`,
    joinPath(path, "artifactId"),
  );
}

/** A chunk may repeat what the artifact is called, or say it first; it may not rename it halfway. */
function adoptedNames(
  artifact: JsonObject,
  existing: JsonObject,
  id: string,
  path: string,
  w: Where,
): Result<[string, JsonValue][]> {
  const adopted: [string, JsonValue][] = [];
  for (const name of ["name", "description", "extensions"]) {
    const given = member(artifact, name);
    if (isEmpty(given)) continue;
    const had = member(existing, name);
    if (isEmpty(had)) adopted.push([name, given as JsonValue]);
    else if (!jsonEquals(given, had)) {
      return fail(
        "INPUT_STREAM_MALFORMED",
        `${label(w)}: an append to artifact ${JSON.stringify(id)} changes its "${name}"`,
        joinPath(path, name),
      );
    }
  }
  return ok(adopted);
}

export class ArtifactFold {
  /** The folded Task's artifacts, in the order they were first sent. */
  readonly list: JsonObject[] = [];
  private readonly index = new Map<string, number>();
  /** artifactIds the Task itself carries twice: an update to one of them cannot say which. */
  private readonly ambiguous = new Set<string>();
  private readonly chunks = new Map<string, ChunkState>();

  constructor(
    private readonly note: (text: string) => void,
    private readonly watch: StreamWatch,
  ) {}

  /** An artifact carried by the first Task: indexed by id, ids the Task repeats marked ambiguous. */
  add(v: JsonValue, path: string, w: Where): Failure | undefined {
    const a = artifactOf(v, path, w);
    if (!a.ok) return a;
    if (this.index.has(a.value.id)) this.ambiguous.add(a.value.id);
    else this.index.set(a.value.id, this.list.length);
    this.list.push(a.value.artifact);
    return undefined;
  }

  /** Adds an artifact, or replaces the one with its id (`append` false or absent, or a later Task). */
  put(
    v: JsonValue | undefined,
    path: string,
    w: Where,
    fromUpdate: boolean,
    lastChunk: boolean | undefined,
  ): Failure | undefined {
    const a = artifactOf(v, path, w);
    if (!a.ok) return a;
    const { id, artifact } = a.value;
    if (this.ambiguous.has(id)) return ambiguousArtifact(id, path, w);
    const at = this.index.get(id);
    if (at === undefined) {
      this.index.set(id, this.list.length);
      this.list.push(artifact);
    } else {
      // A2A lets an update replace an artifact; what the client saw before is said, and a version
      // it was shown as final is kept for taskBinding (contract §9.28).
      const previous = this.list[at] as JsonObject;
      if (!jsonEquals(previous, artifact))
        this.note(`${label(w)}: artifact ${JSON.stringify(id)} replaces the one an earlier event sent`);
      this.watch.artifactReplaced(id, previous, artifact, this.chunks.get(id)?.closedAt, w.n);
      this.list[at] = artifact;
    }
    const chunk: ChunkState = { open: fromUpdate && lastChunk === false };
    if (lastChunk === true) chunk.closedAt = w.n;
    this.chunks.set(id, chunk);
    return undefined;
  }

  /** `append: true`: the chunk's parts go onto the artifact already sent, in order. */
  append(v: JsonValue | undefined, path: string, w: Where, lastChunk: boolean | undefined): Failure | undefined {
    const a = artifactOf(v, path, w);
    if (!a.ok) return a;
    const { id, artifact, parts } = a.value;
    if (this.ambiguous.has(id)) return ambiguousArtifact(id, path, w);
    const at = this.index.get(id);
    const existing = at === undefined ? undefined : this.list[at];
    if (existing === undefined) {
      return fail(
        "INPUT_STREAM_ORDER",
        `${label(w)} appends to artifact ${JSON.stringify(id)}, which the stream has not sent`,
        joinPath(path, "artifactId"),
      );
    }
    const chunk = this.chunks.get(id) ?? { open: false };
    if (chunk.closedAt !== undefined) {
      return fail(
        "INPUT_STREAM_ORDER",
        `${label(w)} appends to artifact ${JSON.stringify(id)} after its last chunk (event ${chunk.closedAt})`,
        joinPath(path, "artifactId"),
      );
    }
    const adopted = adoptedNames(artifact, existing, id, path, w);
    if (!adopted.ok) return adopted;
    const metadata = member(artifact, "metadata");
    if (metadata !== undefined && metadata !== null && !isJsonObject(metadata)) {
      return fail("INPUT_STREAM_MALFORMED", `${label(w)}: "metadata" must be an object`, joinPath(path, "metadata"));
    }
    for (const [name, value] of adopted.value) existing[name] = value;
    const target = member(existing, "parts") as JsonValue[];
    // In place, one part at a time: no copy of the list per chunk, no spread of a huge argument list.
    for (const part of parts) target.push(part);
    if (isJsonObject(metadata)) {
      const own = member(existing, "metadata");
      const merged = isJsonObject(own) ? own : (existing.metadata = newJsonObject());
      for (const k of Object.keys(metadata)) merged[k] = metadata[k] as JsonValue;
    }
    chunk.open = lastChunk !== true;
    if (lastChunk === true) chunk.closedAt = w.n;
    this.chunks.set(id, chunk);
    return undefined;
  }

  /** A note for the artifacts whose last chunk the stream never sent, if any. */
  openChunks(): string | undefined {
    const open = [...this.chunks].filter(([, c]) => c.open).map(([id]) => JSON.stringify(id));
    return open.length > 0
      ? `the stream ended before the last chunk (lastChunk) of artifact ${capped(open).join(", ")}`
      : undefined;
  }
}
