import { describe, expect, it } from "vitest";
import { REFUSAL_KINDS, Refusal } from "#app/domain/refusal";
import { formRefusal, jsonRefusal, REFUSAL_ANSWERS } from "#app/web/refusals.server";

describe("the answer to each refusal", () => {
  it("exists for every kind, a refusal status with a title", () => {
    expect(Object.keys(REFUSAL_ANSWERS).sort()).toEqual([...REFUSAL_KINDS].sort());
    for (const kind of REFUSAL_KINDS) {
      const { status, title } = REFUSAL_ANSWERS[kind];
      expect(status, kind).toBeGreaterThanOrEqual(400);
      expect(status, kind).toBeLessThan(500);
      // 409 means a duplicate coupon code alone (docs/product.md "The JSON API").
      expect(status === 409, kind).toBe(kind === "duplicate-coupon");
      expect(title, kind).not.toBe("");
    }
  });

  it.each(REFUSAL_KINDS)("is the same for the form and the API: %s", async (kind) => {
    const refusal = new Refusal(kind, `Refused: ${kind}`);
    const api = jsonRefusal(refusal);
    const form = formRefusal(refusal);
    expect(form.init.status).toBe(api.status);
    const body = await api.json();
    expect(body.message).toBe(form.toast.description);
    if (body.title !== undefined) expect(body.title).toBe(form.toast.message);
  });

  it("names the title in the API only where docs/product.md does", async () => {
    const taken = await jsonRefusal(new Refusal("slot-taken", "Taken")).json();
    expect(taken).toEqual({ message: "Taken", title: "Time Slot Unavailable" });
    const tooFar = await jsonRefusal(new Refusal("horizon", "Too far")).json();
    expect(tooFar).toEqual({ message: "Too far" });
  });

  it("keeps what the route adds beside the message", async () => {
    const answer = jsonRefusal(new Refusal("refund-changed", "Changed"), { refund: { refund: 5 } });
    expect(answer.status).toBe(422);
    expect(await answer.json()).toEqual({ message: "Changed", refund: { refund: 5 } });
  });

  it("lets a form name its own title and points at the field the message belongs to", () => {
    const refusal = new Refusal("new-slot-refused", "Pick another time");
    expect(formRefusal(refusal).field).toBe("recordingTime");
    expect(formRefusal(refusal, "Not moved").toast.message).toBe("Not moved");
  });
});
