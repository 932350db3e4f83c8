import { describe, expect, it } from "vitest";
import { samePageUrl } from "#app/web/same-page.server";

describe("samePageUrl", () => {
  it.each([
    ["http://h/admin/support", "/admin/support"],
    ["http://h/admin/support?status=PENDING&page=2", "/admin/support?status=PENDING&page=2"],
    ["http://h/admin/support.data?status=PENDING", "/admin/support?status=PENDING"],
    ["http://h/admin/emails.data?_routes=routes%2Fadmin%2Femails", "/admin/emails"],
    ["http://h/admin/blocked-times?index&show=past", "/admin/blocked-times?show=past"],
  ])("reads %s as %s", (url, expected) => {
    expect(samePageUrl(new Request(url, { method: "POST" }))).toBe(expected);
  });

  it("forgets what no longer applies after the change", () => {
    const request = new Request("http://h/admin/sessions.data?status=PENDING&selected=all", {
      method: "POST",
    });
    expect(samePageUrl(request, ["selected"])).toBe("/admin/sessions?status=PENDING");
  });
});
