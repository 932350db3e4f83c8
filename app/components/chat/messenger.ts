/**
 * The support chat through Intercom's SDK (docs/product.md "The studio and its visitors"),
 * imported dynamically here only: pages pay nothing for it without an app id.
 */
type Sdk = typeof import("@intercom/messenger-js-sdk");

/** idle: not started (no app id, no JavaScript yet); ready: the widget script has loaded. */
export type MessengerStatus = "idle" | "loading" | "ready" | "failed";
export type MessengerUser = { id: number; username: string; hash: string | null } | null;

const WIDGET_SCRIPT_ID = "_intercom_npm_loader";

let status: MessengerStatus = "idle";
const listeners = new Set<() => void>();
let sdk: Promise<Sdk> | undefined;
let startedFor: string | null | undefined;
let startedApp: string | undefined;
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
    // Signing out reloads the page: whoever used the messenger last is remembered, and their
    // conversations cleared here.
    const previous = lastIdentity();
    if (previous !== undefined && previous !== identity) {
      messenger.shutdown();
      messenger.boot(settings);
    }
  } else {
    // Clears the previous person's conversations, so a shared computer never shows them.
    messenger.shutdown();
    messenger.boot(settings);
  }
  startedFor = identity;
  startedApp = appId;
  rememberIdentity(identity);
}

const LAST_IDENTITY_KEY = "studio-chat-identity";

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

export function syncMessenger(appId: string, user: MessengerUser): Promise<void> {
  queue = queue.then(() => start(appId, user, false));
  return queue;
}

export function restartMessenger(appId: string, user: MessengerUser): Promise<void> {
  queue = queue.then(() => start(appId, user, true));
  return queue;
}

/** False when there is none to open, so the caller falls back to the support form. */
export function showMessenger(): boolean {
  if (!sdk || status === "failed" || status === "idle") return false;
  void sdk.then((messenger) => messenger.show());
  return true;
}
