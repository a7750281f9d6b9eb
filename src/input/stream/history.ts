/**
 * The folded Task's history, as a stream's events build it. As the SDKs do, a status message joins
 * the history when its messageId is new, and the same message sent again is one observation.
 * Nothing the client was shown is dropped (contract §9.13, §9.14): a status message that reuses a
 * history messageId with other content is kept beside it, and a status message the history does not
 * hold yet joins it when its status is replaced.
 */
import { joinPath } from "../../json/path.js";
import { jsonEquals, type JsonObject, type JsonValue } from "../../json/value.js";
import type { Failure } from "../../result.js";
import { label, type Where } from "./event.js";
import { messageIdOf, type ShownMessage } from "./members.js";

export class HistoryFold {
  /** The folded Task's history. */
  list: JsonObject[] = [];
  private byId = new Map<string, JsonObject>();
  /** Message objects the folded history holds, so one shown twice through two paths is added once. */
  private held = new Set<JsonObject>();
  /** The message the current status shows, with its messageId. */
  shows: ShownMessage | undefined;

  constructor(private readonly note: (text: string) => void) {}

  /** A Task's history, in place of the one folded so far. */
  reset(messages: readonly JsonValue[], path: string, w: Where): Failure | undefined {
    this.list = [];
    this.byId = new Map();
    this.held = new Set();
    for (const [i, m] of messages.entries()) {
      const id = messageIdOf(m, joinPath(path, i), w);
      if (!id.ok) return id;
      const message = m as JsonObject;
      this.list.push(message);
      this.held.add(message);
      if (!this.byId.has(id.value)) this.byId.set(id.value, message);
    }
    return undefined;
  }

  /** The first position at which `history` drops or changes what the folded history holds; -1 if none. */
  firstDifference(history: readonly JsonValue[]): number {
    return this.list.findIndex((m, i) => !jsonEquals(m, history[i]));
  }

  /**
   * A status message joins the history when its messageId is new; the same messageId with other
   * content is kept as a second entry: dropping it would hide from taskBinding what the client was
   * shown.
   */
  add(shown: ShownMessage, w: Where): void {
    const { message, id } = shown;
    if (this.held.has(message)) return;
    const seen = this.byId.get(id);
    if (seen !== undefined && jsonEquals(seen, message)) return;
    if (seen !== undefined) {
      this.note(
        `${label(w)}: status message ${JSON.stringify(id)} differs from the history entry with that messageId; both are kept`,
      );
    } else {
      this.byId.set(id, message);
    }
    this.list.push(message);
    this.held.add(message);
  }

  /**
   * A status is being replaced. A message it showed that the history does not hold yet (the first
   * Task's, or a later Task's, status message; an update's joined the history on arrival) joins
   * it now, so nothing the client was shown vanishes from the folded Task.
   */
  keepStatusMessage(w: Where): void {
    const shown = this.shows;
    if (shown === undefined || this.held.has(shown.message)) return;
    if (!this.byId.has(shown.id))
      this.note(`${label(w)}: the message ${JSON.stringify(shown.id)} of the status it replaces joins the history`);
    this.add(shown, w);
  }
}
