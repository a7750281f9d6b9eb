/**
 * Reports held between the two passes of a run over several inputs, outside the process's memory.
 *
 * Whether a log forked is a fact about every input together, so each input's report waits until
 * all inputs' checkpoints are compared. Held in memory, the waiting reports would grow with the
 * number of inputs; verified again, every input would be read, parsed and loaded twice. So each
 * report is written, as JSON, to a temporary file that is unlinked as soon as it is open: it has
 * no name to find, and it goes away with the process, however the process ends. A process of the
 * same user can still reach an open file (through /proc), so each report's SHA-256 stays in
 * memory and is checked when the report is read back: a report changed in the file is not used.
 * The file is capped. An input whose report does not fit, was changed, or cannot be read back,
 * and any input when no temporary file can be made or written, is simply verified again in the
 * second pass, as it would be without a spool.
 *
 * A report is plain data (strings, numbers, arrays, objects: what --jobs already copies between
 * threads), so JSON gives back exactly the object that was written, member order included.
 */
import { hash } from "node:crypto";
import { closeSync, mkdtempSync, openSync, readSync, rmdirSync, unlinkSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { InputReport } from "../report/model.js";

/** At most this many bytes of reports are kept: a few thousand inputs' worth. */
export const SPOOL_LIMIT_BYTES = 256 * 1024 * 1024;

export class ReportSpool {
  private fd: number | undefined;
  private size = 0;
  /** Each kept report's place in the file and the SHA-256 of its bytes, by input index. */
  private readonly places: (
    { readonly offset: number; readonly length: number; readonly digest: string } | undefined
  )[] = [];

  private constructor(
    fd: number | undefined,
    private readonly limit: number,
  ) {
    this.fd = fd;
  }

  /** A spool in a new private temporary file; one that keeps nothing when none can be made. */
  static open(limit = SPOOL_LIMIT_BYTES, dir = tmpdir()): ReportSpool {
    let folder: string | undefined;
    let file: string | undefined;
    let fd: number | undefined;
    try {
      folder = mkdtempSync(join(dir, "a2a-evidence-"));
      file = join(folder, "reports");
      fd = openSync(file, "wx+", 0o600);
      unlinkSync(file);
      file = undefined;
      rmdirSync(folder);
      return new ReportSpool(fd, limit);
    } catch {
      // Whatever step failed, nothing is left behind: not the descriptor, the file or the folder.
      const undo = [
        () => fd !== undefined && closeSync(fd),
        () => file !== undefined && unlinkSync(file),
        () => folder !== undefined && rmdirSync(folder),
      ];
      for (const step of undo) {
        try {
          step();
        } catch {
          // Already gone, or not ours to remove.
        }
      }
      return new ReportSpool(undefined, limit);
    }
  }

  /** Keeps the report of input `k`; false when it is not kept (no file, the cap, a write error). */
  put(k: number, report: InputReport): boolean {
    if (this.fd === undefined) return false;
    const bytes = Buffer.from(JSON.stringify(report), "utf8");
    if (this.size + bytes.length > this.limit) return false;
    try {
      let written = 0;
      while (written < bytes.length) {
        const n = writeSync(this.fd, bytes, written, bytes.length - written, this.size + written);
        if (n === 0) return false;
        written += n;
      }
    } catch {
      // A full disk keeps nothing more; what was written stays readable.
      return false;
    }
    this.places[k] = { offset: this.size, length: bytes.length, digest: hash("sha256", bytes, "hex") };
    this.size += bytes.length;
    return true;
  }

  /** The report kept for input `k`, or undefined when none was. */
  take(k: number): InputReport | undefined {
    const place = this.places[k];
    if (place === undefined || this.fd === undefined) return undefined;
    this.places[k] = undefined;
    const bytes = Buffer.allocUnsafe(place.length);
    let read = 0;
    try {
      while (read < place.length) {
        const n = readSync(this.fd, bytes, read, place.length - read, place.offset + read);
        if (n === 0) return undefined;
        read += n;
      }
      if (hash("sha256", bytes, "hex") !== place.digest) return undefined;
      return JSON.parse(bytes.toString("utf8")) as InputReport;
    } catch {
      return undefined;
    }
  }

  close(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
  }
}
