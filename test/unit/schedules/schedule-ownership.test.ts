import { describe, expect, it } from "vitest";
import { decideSchedule } from "../../../src/domain/schedules/schedule-ownership.js";

const blue = { owner: "blue", taskQueue: "blue-webhooks" };

describe("decideSchedule", () => {
  it("creates an absent schedule", () => {
    expect(decideSchedule(undefined, blue)).toBe("create");
  });

  it("updates a schedule its own deployment owns, wherever it points", () => {
    expect(decideSchedule({ owner: "blue", taskQueue: "blue-webhooks" }, blue)).toBe("update");
    expect(decideSchedule({ owner: "blue", taskQueue: "old-queue" }, blue)).toBe("update");
  });

  it("leaves another deployment's schedule alone, even one pointing at the claimant's queue", () => {
    expect(decideSchedule({ owner: "green", taskQueue: "green-webhooks" }, blue)).toBe("leave");
    expect(decideSchedule({ owner: "green", taskQueue: "blue-webhooks" }, blue)).toBe("leave");
  });

  it("adopts an ownerless schedule only when it already points at the claimant's queue", () => {
    expect(decideSchedule({ taskQueue: "blue-webhooks" }, blue)).toBe("update");
    expect(decideSchedule({ taskQueue: "green-webhooks" }, blue)).toBe("leave");
  });

  it("two claimants racing on an absent schedule: the loser reads the winner's and leaves it", () => {
    const green = { owner: "green", taskQueue: "green-webhooks" };
    // Both saw it absent and tried to create; green's create won, blue got a conflict and read back.
    expect(decideSchedule(undefined, blue)).toBe("create");
    expect(decideSchedule({ owner: green.owner, taskQueue: green.taskQueue }, blue)).toBe("leave");
    expect(decideSchedule({ owner: green.owner, taskQueue: green.taskQueue }, green)).toBe("update");
  });
});
