import { expect, it } from "vitest";
import { actorsFor } from "#tests/setup/actors";
import { PASSWORD } from "#tests/setup/payloads";
import { appForThisFile } from "#tests/setup/app-in-process";

/** The password change takes login's budget (three here), counted per account. */
const server = appForThisFile({ LOGIN_RATE_LIMIT: "3" });
const { signUp, snapshot } = actorsFor(server);

function changePassword(cookie: string, currentPassword: string) {
  return fetch(`${server.url}/dashboard?tab=profile`, {
    method: "POST",
    headers: { Cookie: cookie, Origin: server.url },
    body: new URLSearchParams({
      intent: "password",
      currentPassword,
      newPassword: "next-secret-1",
      confirmNewPassword: "next-secret-1",
    }),
    redirect: "manual",
  });
}

it("limits wrong current passwords per account, then refuses even the right one", async () => {
  const customer = await signUp();
  const statuses: number[] = [];
  for (let attempt = 0; attempt < 3; attempt += 1) {
    statuses.push((await changePassword(customer.cookie, `wrong-${attempt}-password`)).status);
  }
  const before = snapshot();
  const limited = await changePassword(customer.cookie, PASSWORD);
  statuses.push(limited.status);
  expect(statuses).toEqual([400, 400, 400, 429]);
  expect(await limited.text()).toMatch(/Too many attempts\. Please try again in \d+ minutes?\./);
  expect(snapshot()).toEqual(before);

  // Another account, from the same address, is not limited by this one's attempts.
  const other = await signUp();
  expect((await changePassword(other.cookie, PASSWORD)).status).toBe(302);
});
