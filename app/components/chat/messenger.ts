/**
 * The hosted customer-support chat (docs/product.md "The studio and its visitors": started with the
 * user id and username), through Intercom's official SDK. The SDK is imported only here and only
 * dynamically, so it is its own chunk: pages pay nothing for it when no app id is configured, and
 * it is fetched after the page is interactive when one is. The state is kept for the whole browser
 * tab, so /intercom-test can show it and the nav's Help can open the messenger.
 */
type Sdk = typeof import("@intercom/messenger-js-sdk");

/** idle: not started (no app id, no JavaScript yet); ready: the widget script has loaded. */
export type MessengerStatus = "idle" | "loading" | "ready" | "failed";
export type MessengerUser = { id: number; username: string; hash: string | null } | null;

/** The id of the script element the SDK adds for the widget. */
const WIDGET_SCRIPT_ID = "_intercom_npm_loader";

let status: MessengerStatus = "idle";
const listeners = new Set<() => void>();
let sdk: Promise<Sdk> | undefined;
/** Who the messenger runs for: undefined before the first start, null for a visitor. */
let startedFor: string | null | undefined;
let startedApp: string | undefined;
/** Starts, restarts and shutdowns run one after another, never interleaved. */
let queue: Promise<void> = Promise.resolve();

function setStatus(next: MessengerStatus) {
  if (status === next) return;
  status = next;
  for (const listener of listeners) listener();
}

export function subscribeMessenger(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
export const messengerStatus = () => status;
/** The server never runs the widget. */
export const serverMessengerStatus = (): MessengerStatus => "idle";

function watchWidgetScript() {
  const script = document.getElementById(WIDGET_SCRIPT_ID);
  // The SDK adds it at once on a loaded document, which a hydrated page always is.
  if (!script) return;
  script.addEventListener("load", () => setStatus("ready"), { once: true });
  // Offline, or blocked by an extension or the network: Help falls back to the form.
  script.addEventListener("error", () => setStatus("failed"), { once: true });
}

async function start(appId: string, user: MessengerUser, restart: boolean) {
  const identity = user ? String(user.id) : null;
  if (!restart && startedFor === identity && startedApp === appId) return;
  if (status === "idle") setStatus("loading");
  let messenger: Sdk;
  try {
    sdk ??= import("@intercom/messenger-js-sdk");
    messenger = await sdk;
  } catch {
    sdk = undefined;
    setStatus("failed");
    return;
  }
  // user_hash: Intercom's identity verification, signed by the server (services/chat.server).
  const settings = user
    ? {
        app_id: appId,
        user_id: String(user.id),
        name: user.username,
        ...(user.hash ? { user_hash: user.hash } : {}),
      }
    : { app_id: appId };
  if (startedFor === undefined) {
    messenger.Intercom(settings);
    watchWidgetScript();
    // Signing out reloads the page, so the switch below never ran for it: whoever used the
    // messenger last in this browser is remembered, and their conversations cleared here.
    const previous = lastIdentity();
    if (previous !== undefined && previous !== identity) {
      messenger.shutdown();
      messenger.boot(settings);
    }
  } else {
    // A shutdown clears the previous person's conversations from this browser (Intercom's
    // advice on logout), so a shared computer never shows them to the next person.
    messenger.shutdown();
    messenger.boot(settings);
  }
  startedFor = identity;
  startedApp = appId;
  rememberIdentity(identity);
}

const LAST_IDENTITY_KEY = "studio-chat-identity";

/** Who last used the messenger in this browser ("" for a visitor); undefined if unknown. */
function lastIdentity(): string | null | undefined {
  try {
    const stored = window.localStorage.getItem(LAST_IDENTITY_KEY);
    return stored === null ? undefined : stored === "" ? null : stored;
  } catch {
    return undefined; // storage blocked: nothing known, nothing to clear
  }
}

function rememberIdentity(identity: string | null) {
  try {
    window.localStorage.setItem(LAST_IDENTITY_KEY, identity ?? "");
  } catch {
    // storage blocked: the next page load cannot tell, as before
  }
}

/** Starts the messenger for this person, or switches it when they signed in or out. */
export function syncMessenger(appId: string, user: MessengerUser): Promise<void> {
  queue = queue.then(() => start(appId, user, false));
  return queue;
}

/** Shuts the messenger down and boots it again (the diagnostic page's Reinitialize). */
export function restartMessenger(appId: string, user: MessengerUser): Promise<void> {
  queue = queue.then(() => start(appId, user, true));
  return queue;
}

/**
 * Opens the messenger; false when there is none to open (not configured, or it failed to
 * load), so the caller can fall back to the support form. While the widget script is still
 * loading, the SDK queues the call.
 */
export function showMessenger(): boolean {
  if (!sdk || status === "failed" || status === "idle") return false;
  void sdk.then((messenger) => messenger.show());
  return true;
}
