// @ts-check
// The static site's clock (backend/local.js): qi-wasm's Clock on the
// browser's wall time (Date.now(), so that the time runs on while the
// page is closed, as a server's clock does), and the log of what was done
// to it, which is saved with the game and replayed after a reload into
// the same clock.
import { Clock } from "../pkg/qi_wasm.js";

/**
 * One thing done to the clock, at a time (ms of the wall clock).
 * @typedef {["start", "first" | "second", number] | ["press" | "stop" | "pause" | "resume", null, number]} ClockEvent
 */

/**
 * What is saved of a clock: its time control and its events.
 * @typedef {{ control: string, events: ClockEvent[] }} ClockLog
 */

export class KeptClock {
  /**
   * A clock of `control` ("300+2"), with `events` replayed (a saved
   * clock); throws the library's error when one cannot be.
   * @param {string} control
   * @param {ClockEvent[]} [events]
   */
  constructor(control, events = []) {
    this.clock = new Clock(control);
    /** @type {ClockLog} */
    this.log = { control: this.clock.timeControl, events: [] };
    // The last time read: the clock's time never goes back, even when
    // the computer's clock is set back.
    this.last = 0;
    for (const event of events) this.apply(event);
  }

  /** The time now, never before the last read. */
  now() {
    this.last = Math.max(this.last, Date.now());
    return this.last;
  }

  /**
   * Does an event to the clock and logs it (not when refused).
   * @param {ClockEvent} event
   */
  apply(event) {
    const [op, side, at] = event;
    switch (op) {
      case "start":
        this.clock.start(side, at);
        break;
      case "press":
        this.clock.press(at);
        break;
      case "stop":
        this.clock.stop(at);
        break;
      case "pause":
        this.clock.pause(at);
        break;
      case "resume":
        this.clock.resume(at);
        break;
    }
    this.last = Math.max(this.last, at);
    this.log.events.push(event);
  }

  /**
   * Starts `side`'s time now (or hands the running time to it).
   * @param {"first" | "second"} side
   */
  start(side) {
    this.apply(["start", side, this.now()]);
  }

  /** @param {"press" | "stop" | "pause" | "resume"} op */
  act(op) {
    this.apply([op, null, this.now()]);
  }

  /** The clock now, a fallen flag recorded. */
  view() {
    const now = this.now();
    this.clock.check(now);
    return this.clock.view(now);
  }

  /** The time control, as the record's TimeControl tag writes it. */
  get timeControl() {
    return this.clock.timeControl;
  }
}
