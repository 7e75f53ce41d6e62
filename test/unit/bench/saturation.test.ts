import { describe, expect, it } from "vitest";
import { spreadClients } from "../../../bench/uploads-peers/client-processes.js";
import { climbsOn, peakOf, type Level } from "../../../bench/uploads-peers/saturation.js";

const level = (clients: number, rate: number, errors = 0): Level => ({ clients, rate, errors });

describe("the saturation search", () => {
  it("climbs while each level beats the best before it by 5%", () => {
    expect(climbsOn([])).toBe(true);
    expect(climbsOn([level(8, 10)])).toBe(true);
    expect(climbsOn([level(8, 10), level(16, 10.6)])).toBe(true);
    expect(climbsOn([level(8, 10), level(16, 10.4)])).toBe(false);
    // Measured against the best so far, not the level just before.
    expect(climbsOn([level(8, 10), level(16, 20), level(32, 12), level(64, 20.5)])).toBe(false);
  });

  it("stops at a level whose clients saw errors, and never picks it", () => {
    const levels = [level(8, 10), level(16, 30, 2)];
    expect(climbsOn(levels)).toBe(false);
    expect(peakOf(levels).clients).toBe(8);
  });

  it("picks the level with the best rate, even when a later one was only a little slower", () => {
    expect(peakOf([level(8, 10), level(16, 18), level(32, 17.5)]).clients).toBe(16);
    expect(peakOf([level(8, 10, 1), level(16, 12, 3)]).clients).toBe(8);
  });
});

describe("spreadClients", () => {
  it("spreads a turn's clients evenly over the processes, the first ones taking the remainder", () => {
    expect(spreadClients(16, 4)).toEqual([4, 4, 4, 4]);
    expect(spreadClients(10, 4)).toEqual([3, 3, 2, 2]);
    expect(spreadClients(2, 4)).toEqual([1, 1, 0, 0]);
  });
});
