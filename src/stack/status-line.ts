/**
 * A status line at the bottom of a terminal, rewritten in place (Go tool build progress), with
 * ordinary log lines printed above it. Only for a TTY: elsewhere `\r` does not rewrite anything.
 */
import { fitToWidth } from "./build-progress.js";

export interface StatusLine {
  /** Replaces the status line; "" clears it. */
  show(text: string): void;
  /** Prints a line above the status line. */
  log(line: string): void;
}

const CLEAR_LINE = "\r\x1b[K";

export function statusLine(stream: NodeJS.WriteStream): StatusLine {
  let current = "";
  const draw = () => stream.write(`${CLEAR_LINE}${fitToWidth(current, stream.columns)}`);
  return {
    show(text) {
      current = text;
      draw();
    },
    log(line) {
      stream.write(`${CLEAR_LINE}${line}\n`);
      if (current !== "") draw();
    },
  };
}
