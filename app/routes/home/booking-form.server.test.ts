import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { bookingFormAction } from "#app/routes/home/booking-form.server";
import { inlineToastContext } from "#app/web/request-context.server";

/** Posts the booking form without JavaScript, in this process: the answer and its toast. */
async function post(fields: Record<string, string>) {
  const context = new RouterContextProvider();
  const request = new Request("http://localhost/?index", {
    method: "POST",
    body: new URLSearchParams(fields),
  });
  const answer = (await bookingFormAction(request, context, null)) as {
    data: { intent: string | null };
    init: ResponseInit | null;
  };
  return { answer, toast: context.get(inlineToastContext) };
}

describe("the booking form's intents", () => {
  it.each(["nope", "", "toString", "constructor"])(
    "answers an unknown intent (%j) with our 400, changing nothing",
    async (intent) => {
      const { answer, toast } = await post({ intent, recordingDate: "not a date" });
      expect(answer.init?.status).toBe(400);
      expect(toast).toEqual({
        type: "error",
        message: "Booking Error",
        description: "There was a problem processing your form. Please try again.",
      });
    },
  );

  it("answers a post without an intent the same way", async () => {
    const { answer, toast } = await post({});
    expect(answer.init?.status).toBe(400);
    expect(answer.data.intent).toBeNull();
    expect(toast?.message).toBe("Booking Error");
  });

  it("hands a known intent to its handler", async () => {
    const { answer, toast } = await post({ intent: "remove-coupon" });
    expect(answer.data.intent).toBe("remove-coupon");
    expect(toast).toMatchObject({ type: "success", message: "Coupon Removed" });
  });
});
