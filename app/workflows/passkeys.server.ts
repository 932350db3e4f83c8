import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import { isUniqueViolation, writeTransaction } from "#app/db.server";
import {
  CHALLENGE_TTL_MS,
  PASSKEY_ALREADY_REGISTERED,
  PASSKEY_CHALLENGE_EXPIRED,
  PASSKEY_UNKNOWN,
  PASSKEY_VERIFICATION_FAILED,
} from "#app/domain/passkey";
import { env } from "#app/env.server";
import {
  type ChallengePurpose,
  credentialIdsOf,
  deletePasskey,
  findPasskeyByCredentialId,
  insertChallenge,
  insertPasskey,
  liveChallenge,
  recordPasskeyUse,
  takeChallenge,
} from "#app/models/passkey.server";

/**
 * Adding a passkey and signing in with one (docs/product.md "Accounts and sign-ins"), with
 * @simplewebauthn/server. The relying party is APP_URL, never a request header. A refusal
 * changes nothing: the answer is verified against the challenge first, and the challenge is
 * deleted by the same transaction that records the outcome, so it answers once.
 */
export type PasskeyRefusal = { ok: false; status: number; message: string };
type Started<T> = { challengeId: string; options: T };

const refuse = (status: number, message: string): PasskeyRefusal => ({
  ok: false,
  status,
  message,
});

/** Thrown inside a transaction to roll it back with our message. */
class Refused extends Error {
  constructor(readonly refusal: PasskeyRefusal) {
    super(refusal.message);
  }
}

function relyingParty() {
  const url = new URL(env.APP_URL);
  return { rpID: url.hostname, origin: url.origin };
}

/** The user handle stored on the authenticator: the account's id (no name, no e-mail). */
export function userHandleOf(userId: number): string {
  return Buffer.from(String(userId)).toString("base64url");
}

function storeChallenge(challenge: string, userId: number | null, purpose: ChallengePurpose) {
  const now = Date.now();
  return writeTransaction((tx) =>
    insertChallenge(tx, { challenge, userId, purpose }, now, now + CHALLENGE_TTL_MS),
  );
}

/** Options for the browser's "create a passkey" prompt for this signed-in account. */
export async function registrationOptions(user: {
  id: number;
  username: string;
  firstName: string;
  lastName: string;
}): Promise<Started<PublicKeyCredentialCreationOptionsJSON>> {
  const { rpID } = relyingParty();
  const options = await generateRegistrationOptions({
    rpName: "ATL Creator Studio",
    rpID,
    userName: user.username,
    userID: new Uint8Array(Buffer.from(String(user.id))),
    userDisplayName: `${user.firstName} ${user.lastName}`.trim(),
    timeout: CHALLENGE_TTL_MS,
    attestationType: "none",
    // The account's passkeys: an authenticator holding one is not asked to make a second.
    excludeCredentials: credentialIdsOf(user.id),
    authenticatorSelection: { residentKey: "required", userVerification: "required" },
  });
  return { challengeId: storeChallenge(options.challenge, user.id, "REGISTER"), options };
}

/** Verifies the browser's new credential and stores it under `name` (already validated). */
export async function addPasskey(
  userId: number,
  answer: { challengeId: string; response: RegistrationResponseJSON; name: string },
): Promise<{ ok: true; id: number } | PasskeyRefusal> {
  const challenge = liveChallenge(answer.challengeId, "REGISTER", userId, Date.now());
  if (challenge === null) return refuse(400, PASSKEY_CHALLENGE_EXPIRED);
  const { rpID, origin } = relyingParty();
  let verification: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    verification = await verifyRegistrationResponse({
      response: answer.response,
      expectedChallenge: challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: true,
    });
  } catch {
    return refuse(400, PASSKEY_VERIFICATION_FAILED);
  }
  if (!verification.verified) return refuse(400, PASSKEY_VERIFICATION_FAILED);
  const { credential } = verification.registrationInfo;
  if (findPasskeyByCredentialId(credential.id)) return refuse(409, PASSKEY_ALREADY_REGISTERED);
  try {
    const id = writeTransaction((tx) => {
      const now = Date.now();
      if (takeChallenge(tx, answer.challengeId, "REGISTER", userId, now) === null) {
        throw new Refused(refuse(400, PASSKEY_CHALLENGE_EXPIRED));
      }
      return insertPasskey(
        tx,
        {
          userId,
          credentialId: credential.id,
          publicKey: credential.publicKey,
          counter: credential.counter,
          transports: credential.transports ?? [],
          name: answer.name,
        },
        now,
      );
    });
    return { ok: true, id };
  } catch (error) {
    if (error instanceof Refused) return error.refusal;
    // Added by a second request in the gap since the check above.
    if (isUniqueViolation(error)) return refuse(409, PASSKEY_ALREADY_REGISTERED);
    throw error;
  }
}

/** Options for the browser's "use a passkey" prompt: any passkey of this site (no username). */
export async function signInOptions(): Promise<Started<PublicKeyCredentialRequestOptionsJSON>> {
  const options = await generateAuthenticationOptions({
    rpID: relyingParty().rpID,
    allowCredentials: [],
    userVerification: "required",
    timeout: CHALLENGE_TTL_MS,
  });
  return { challengeId: storeChallenge(options.challenge, null, "SIGN_IN"), options };
}

/** Verifies a passkey's answer; the account it signs in, or our refusal. */
export async function signInWithPasskey(answer: {
  challengeId: string;
  response: AuthenticationResponseJSON;
}): Promise<{ ok: true; userId: number } | PasskeyRefusal> {
  const challenge = liveChallenge(answer.challengeId, "SIGN_IN", null, Date.now());
  if (challenge === null) return refuse(400, PASSKEY_CHALLENGE_EXPIRED);
  const passkey = findPasskeyByCredentialId(answer.response.id);
  if (!passkey) return refuse(401, PASSKEY_UNKNOWN);
  // The authenticator names the account it made the passkey for: it must be the passkey's owner.
  const handle = answer.response.response.userHandle;
  if (handle !== undefined && handle !== userHandleOf(passkey.userId)) {
    return refuse(401, PASSKEY_VERIFICATION_FAILED);
  }
  const { rpID, origin } = relyingParty();
  let newCounter: number;
  try {
    const verification = await verifyAuthenticationResponse({
      response: answer.response,
      expectedChallenge: challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      credential: {
        id: passkey.credentialId,
        publicKey: new Uint8Array(passkey.publicKey),
        counter: passkey.counter,
        transports: passkey.transports,
      },
      requireUserVerification: true,
    });
    if (!verification.verified) return refuse(401, PASSKEY_VERIFICATION_FAILED);
    newCounter = verification.authenticationInfo.newCounter;
  } catch {
    // Among others: a signature counter not above the stored one (a cloned authenticator).
    return refuse(401, PASSKEY_VERIFICATION_FAILED);
  }
  try {
    writeTransaction((tx) => {
      const now = Date.now();
      if (takeChallenge(tx, answer.challengeId, "SIGN_IN", null, now) === null) {
        throw new Refused(refuse(400, PASSKEY_CHALLENGE_EXPIRED));
      }
      if (!recordPasskeyUse(tx, passkey.id, passkey.counter, newCounter, now)) {
        throw new Refused(refuse(401, PASSKEY_VERIFICATION_FAILED));
      }
    });
  } catch (error) {
    if (error instanceof Refused) return error.refusal;
    throw error;
  }
  return { ok: true, userId: passkey.userId };
}

/** Removes the account's passkey `id`; false when the account has no such passkey. */
export function removePasskey(userId: number, id: number): boolean {
  return writeTransaction((tx) => deletePasskey(tx, userId, id));
}
