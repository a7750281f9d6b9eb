/**
 * A progress bar for long runs, on stderr, only where a person watches it: stderr is a terminal,
 * not -q, not under CI (the CI variable), and more than one input. It updates at most a hundred
 * times a run and clears itself before the run ends, so nothing of it stays in a report.
 */
import type { CliIo } from "./io.js";

const WIDTH = 30;

export class Progress {
  private readonly on: boolean;
  private done_ = 0;
  private shown = -1;

  constructor(
    private readonly io: CliIo,
    private readonly total: number,
    quiet: boolean,
  ) {
    this.on = total > 1 && !quiet && Boolean(io.stderrIsTTY) && !io.env.CI;
  }

  tick(what: string): void {
    if (!this.on) return;
    this.done_++;
    const percent = Math.floor((this.done_ * 100) / this.total);
    if (percent === this.shown && this.done_ !== this.total) return;
    this.shown = percent;
    const filled = Math.round((this.done_ * WIDTH) / this.total);
    this.io.stderr(
      `\r[${"#".repeat(filled)}${".".repeat(WIDTH - filled)}] ${this.done_}/${this.total} ${what}\u001b[K`,
    );
  }

  /** A second pass over the same inputs starts the bar again. */
  restart(): void {
    this.done_ = 0;
    this.shown = -1;
  }

  done(): void {
    if (this.on) this.io.stderr("\r\u001b[K");
  }
}
