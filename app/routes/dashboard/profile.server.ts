import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { RouterContextProvider } from "react-router";
import type { ProfileFormReply, ProfileTabData } from "#app/components/dashboard/types";
import { passwordChangeSchema, profileSchema, SIGN_OUT_OTHER_DEVICES } from "#app/domain/account";
import { writeTransaction } from "#app/db.server";
import { feedUrls, NEW_CALENDAR_LINK } from "#app/domain/calendar-feed";
import { Refusal } from "#app/domain/refusal";
import { env } from "#app/env.server";
import { createFeedToken, feedToken, regenerateFeedToken } from "#app/models/calendar-feed.server";
import { passkeyRows } from "#app/routes/dashboard/passkey-rows.server";
import { twoFactorState } from "#app/models/two-factor.server";
import { type PublicUser, updateProfile } from "#app/models/user.server";
import { giveBackAttempt, takeAttempt, tooManyAttemptsMessage } from "#app/web/rate-limit.server";
import { formRefusal } from "#app/web/refusals.server";
import { getSignedIn, readSignInId, signInCookieFor } from "#app/web/sign-in.server";
import { redirectWithSuccess, replyWithToast } from "#app/web/toast.server";
import { changePassword } from "#app/workflows/change-password.server";
import { signOutOtherDevices } from "#app/workflows/sign-out-other-devices.server";

/** Profile Settings: the profile form and the password change. */
type ProfileIntent = ProfileFormReply["form"];

export const PROFILE_INTENTS = [
  "profile",
  "password",
  NEW_CALENDAR_LINK,
  // The calendar feed's New link: no fields, so nothing to refuse (a redirect and a toast).
  SIGN_OUT_OTHER_DEVICES,
  // No fields either: the other sign-ins end and the calendar links are replaced.
] as const satisfies readonly (
  | ProfileIntent
  | typeof NEW_CALENDAR_LINK
  | typeof SIGN_OUT_OTHER_DEVICES
)[];

/** Where both forms land after success (post, redirect, get). */
const PROFILE_TAB = "/dashboard?tab=profile";

/** The password fields are never sent back into the page, not even after a refusal. */
const PASSWORD_FIELDS = ["currentPassword", "newPassword", "confirmNewPassword"];

/** The form starts from what is stored: the loader reads the user afresh on every request. */
export function loadProfileTab(user: PublicUser, createFeed: boolean): ProfileTabData {
  return {
    profile: {
      firstName: user.firstName,
      lastName: user.lastName,
      email: user.email,
      phoneNumber: user.phoneNumber,
      businessName: user.businessName ?? "",
      isStakeholder: user.isStakeholder,
    },
    twoFactor: (({ enabled, recoveryCodesLeft }) => ({ enabled, recoveryCodesLeft }))(
      twoFactorState(user.id),
    ),
    passkeys: passkeyRows(user.id),
    // Made on the first view of the tab (docs/product.md "Calendar feeds").
    calendarFeed: feedUrls(
      env.APP_URL,
      feedToken(user.id, "CUSTOMER") ??
        (createFeed ? writeTransaction((tx) => createFeedToken(tx, user.id, "CUSTOMER")) : null),
    ),
  };
}

function firstError(error: Record<string, string[] | null> | undefined): string | undefined {
  return Object.values(error ?? {}).find((messages) => messages?.length)?.[0];
}

export async function profileAction(
  request: Request,
  context: Readonly<RouterContextProvider>,
  user: PublicUser,
  formData: FormData,
) {
  // What the tab's forms are answered with when refused; `intent` says which form it is.
  const refuse = (
    intent: ProfileIntent,
    result: SubmissionResult<string[]>,
    description: string,
    status: number,
  ) =>
    replyWithToast(
      context,
      formData,
      { intent, result },
      { type: "error", message: "Error", description },
      { status },
    );

  if (formData.get("intent") === NEW_CALENDAR_LINK) {
    writeTransaction((tx) => regenerateFeedToken(tx, user.id, "CUSTOMER"));
    return redirectWithSuccess(PROFILE_TAB, {
      message: "New calendar link made",
      description: "The old link has stopped working. Subscribe again with the new one.",
    });
  }

  if (formData.get("intent") === SIGN_OUT_OTHER_DEVICES) {
    const current = readSignInId(request);
    // The page is behind sign-in, so the request carries its sign-in.
    if (current) signOutOtherDevices(user.id, current);
    return redirectWithSuccess(PROFILE_TAB, {
      message: "Signed out of all other devices",
      description:
        "Every other browser and device has to sign in again, and your calendar link is new: subscribe again with it.",
    });
  }

  if (formData.get("intent") === "password") {
    const submission = parseWithZod(formData, { schema: passwordChangeSchema });
    if (submission.status !== "success") {
      const reply = submission.reply({ hideFields: PASSWORD_FIELDS });
      return refuse("password", reply, firstError(reply.error) ?? "Failed to change password", 400);
    }
    const limitKey = `user:${user.id}`;
    // The attempt is taken before the password is checked (and given back when it was right),
    // so guesses sent in parallel are all counted.
    const wait = await takeAttempt("password", limitKey);
    if (wait !== null) {
      const message = tooManyAttemptsMessage(wait);
      const reply = submission.reply({ formErrors: [message], hideFields: PASSWORD_FIELDS });
      return refuse("password", reply, message, 429);
    }
    const { currentPassword, newPassword } = submission.value;
    const signedIn = await getSignedIn(request);
    const secondFactor = signedIn?.secondFactor ?? false;
    let signInId: string;
    try {
      signInId = await changePassword(user.id, currentPassword, newPassword, secondFactor);
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      const { init, field = "currentPassword" } = formRefusal(error);
      const reply = submission.reply({
        fieldErrors: { [field]: [error.message] },
        hideFields: PASSWORD_FIELDS,
      });
      return refuse("password", reply, error.message, init.status);
    }
    await giveBackAttempt("password", limitKey);
    return redirectWithSuccess(
      PROFILE_TAB,
      {
        message: "Password changed",
        description:
          "Your other devices have been signed out, and your calendar link is new: subscribe again with it.",
      },
      { headers: { "Set-Cookie": await signInCookieFor(signInId) } },
    );
  }

  const submission = parseWithZod(formData, { schema: profileSchema });
  if (submission.status !== "success") {
    const reply = submission.reply();
    return refuse("profile", reply, firstError(reply.error) ?? "Failed to update profile", 400);
  }
  updateProfile(user.id, submission.value);
  return redirectWithSuccess(PROFILE_TAB, {
    message: "Profile updated",
    description: "Your profile has been updated successfully.",
  });
}
