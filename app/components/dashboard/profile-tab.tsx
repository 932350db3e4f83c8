import { getFormProps } from "@conform-to/react";
import { Form, Link } from "react-router";
import { passwordChangeSchema, profileSchema, SIGN_OUT_OTHER_DEVICES } from "#app/domain/account";
import type { PublicUser } from "#app/domain/user";
import type { ProfileTabData } from "#app/components/dashboard/types";
import { RATES } from "#app/components/landing/studio";
import { PasskeysSection } from "#app/components/dashboard/passkeys-section";
import { CalendarFeedLink } from "#app/components/calendar-feed-link";
import { NEW_CALENDAR_LINK } from "#app/domain/calendar-feed";
import { ErrorList } from "#app/components/ui/error-list";
import { IntentButton } from "#app/components/ui/intent-button";
import { Choice, Field } from "#app/components/ui/field";
import { HydratedField } from "#app/components/ui/hydrated-field";
import {
  type FormReply,
  type IntentReply,
  replyTo,
  useSchemaForm,
} from "#app/components/ui/use-schema-form";

/** The panel is also rendered on /, whose own action is the booking's. */
const ACTION = "/dashboard?tab=profile";

/** docs/product.md "Screens", "Validation". Plain posts; conform checks the same schemas first. */
export default function ProfileTab({
  data,
  reply,
}: {
  user: PublicUser;
  data: ProfileTabData;
  reply?: IntentReply;
}) {
  const profile = data.profile;
  return (
    <div data-slot="dashboard-profile" className="space-y-10">
      <ProfileForm
        // A stored change (trimmed, or made in another tab) restarts the form from it.
        key={JSON.stringify(profile)}
        profile={profile}
        result={replyTo(reply, "profile")}
      />
      <PasswordForm result={replyTo(reply, "password")} />
      <SignOutOtherDevices />
      <TwoFactorSection twoFactor={data.twoFactor} />
      <PasskeysSection passkeys={data.passkeys} />
      <div className="border-t border-line pt-8">
        <CalendarFeedLink
          id="calendar-feed"
          title="Your sessions in your calendar"
          description="Subscribe to this private link in Google Calendar, Apple Calendar or Outlook: your sessions appear there and stay up to date, cancelled ones marked as cancelled."
          urls={data.calendarFeed}
          action={ACTION}
          intent={NEW_CALENDAR_LINK}
        />
      </div>
    </div>
  );
}

function ProfileForm({
  profile,
  result,
}: {
  profile: ProfileTabData["profile"];
  result: FormReply;
}) {
  const [form, fields] = useSchemaForm({
    id: "profile",
    schema: profileSchema,
    lastResult: result,
    defaultValue: { ...profile, isStakeholder: profile.isStakeholder ? "on" : undefined },
  });
  return (
    <section aria-labelledby="profile-title">
      <h3 id="profile-title" className="font-display text-xl font-bold">
        Personal details
      </h3>
      <p className="mt-1 text-sm text-ink-soft">
        These details fill in your booking form and appear on your sessions.
      </p>
      <Form
        method="post"
        action={ACTION}
        preventScrollReset
        {...getFormProps(form)}
        className="mt-6 space-y-4"
      >
        <HydratedField />
        <ErrorList id={form.errorId} errors={form.errors} />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="First name" meta={fields.firstName} type="text" autoComplete="given-name" />
          <Field label="Last name" meta={fields.lastName} type="text" autoComplete="family-name" />
          <Field label="Email" meta={fields.email} type="email" autoComplete="email" />
          <Field label="Phone number" meta={fields.phoneNumber} type="tel" autoComplete="tel" />
        </div>
        <Field
          label="Business name (optional)"
          meta={fields.businessName}
          type="text"
          autoComplete="organization"
        />
        <Choice
          meta={fields.isStakeholder}
          type="checkbox"
          label="I am a stakeholder"
          description={`Stakeholders of the innovation centre book at $${RATES.stakeholder}/hour instead of $${RATES.nonMember}/hour.`}
          className="flex items-start gap-3 text-sm"
          inputClassName="mt-1 size-5 rounded border-ink-soft/50 accent-brand-600"
          labelClassName="font-semibold"
          descriptionClassName="text-ink-soft"
        />
        <IntentButton intent="profile" label="Save Changes" busyLabel="Saving…" />
      </Form>
    </section>
  );
}

function PasswordForm({ result }: { result: FormReply }) {
  const [form, fields] = useSchemaForm({
    id: "password",
    schema: passwordChangeSchema,
    lastResult: result,
  });
  return (
    <section aria-labelledby="password-title" className="border-t border-line pt-8">
      <h3 id="password-title" className="font-display text-xl font-bold">
        Change password
      </h3>
      <p className="mt-1 text-sm text-ink-soft">
        Changing it signs you out everywhere else, on every other device and browser.
      </p>
      <Form
        method="post"
        action={ACTION}
        preventScrollReset
        {...getFormProps(form)}
        className="mt-6 space-y-4"
      >
        <HydratedField />
        <ErrorList id={form.errorId} errors={form.errors} />
        <Field
          label="Current password"
          meta={fields.currentPassword}
          type="password"
          autoComplete="current-password"
        />
        <Field
          label="New password"
          meta={fields.newPassword}
          type="password"
          autoComplete="new-password"
          hint="At least 8 characters, and not easy to guess."
        />
        <Field
          label="Confirm new password"
          meta={fields.confirmNewPassword}
          type="password"
          autoComplete="new-password"
        />
        <IntentButton intent="password" label="Change Password" busyLabel="Changing…" />
      </Form>
    </section>
  );
}

function SignOutOtherDevices() {
  return (
    <section aria-labelledby="sign-out-title" className="border-t border-line pt-8">
      <h3 id="sign-out-title" className="font-display text-xl font-bold">
        Signed in elsewhere?
      </h3>
      <p className="mt-1 text-sm text-ink-soft">
        Signs you out on every other device and browser, and gives you a new calendar link. You stay
        signed in here.
      </p>
      <Form method="post" action={ACTION} preventScrollReset className="mt-4">
        <IntentButton
          intent={SIGN_OUT_OTHER_DEVICES}
          label="Sign out of all devices"
          busyLabel="Signing out…"
        />
      </Form>
    </section>
  );
}

function TwoFactorSection({ twoFactor }: { twoFactor: ProfileTabData["twoFactor"] }) {
  return (
    <section aria-labelledby="two-factor-title" className="border-t border-line pt-8">
      <h3 id="two-factor-title" className="font-display text-xl font-bold">
        Two-factor sign-in
      </h3>
      <p className="mt-1 text-sm text-ink-soft">
        {twoFactor.enabled
          ? `On: signing in asks for a code from your authenticator app. Recovery codes left: ${twoFactor.recoveryCodesLeft}.`
          : "Off: add a code from an authenticator app to your password when you sign in."}
      </p>
      <Link to="/dashboard/two-factor" className="btn-primary mt-4 inline-block">
        {twoFactor.enabled ? "Manage two-factor sign-in" : "Set up two-factor sign-in"}
      </Link>
    </section>
  );
}
