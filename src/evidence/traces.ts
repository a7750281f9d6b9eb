/** The holders of an observed Task that a trace entry may name (docs/profile.md, traces). */
import type { A2ATask } from "../input/a2a.js";

/** Whether the holder an entry names is part of the observation at all (a Message may be truncated away). */
export function holders(task: A2ATask): Set<string> {
  const out = new Set<string>([`task ${task.id}`]);
  for (const m of task.history ?? []) out.add(`message ${m.messageId}`);
  if (task.statusMessage) out.add(`message ${task.statusMessage.messageId}`);
  for (const a of task.artifacts ?? []) out.add(`artifact ${a.artifactId}`);
  return out;
}
