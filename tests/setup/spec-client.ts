/**
 * A client written to the spec's section 7 and nothing else (docs/product.md "The JSON API"),
 * held aside from the server's code: it sends cookies like a browser; a non-OK answer is an
 * error carrying the body's `message` (else "status: text"); a 409 is handed back raw so the
 * caller can inspect it; a 401 on the current user or the services list is null. A server that
 * answered 409 for a failure would make this client report success, as the original did.
 */
export class SpecClientError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

type Options = { nullOn401?: boolean };

export function specClient(baseUrl: string) {
  const jar = new Map<string, string>();

  function remember(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const at = pair.indexOf("=");
      const name = pair.slice(0, at);
      const value = pair.slice(at + 1);
      if (value === "" || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) jar.delete(name);
      else jar.set(name, value);
    }
  }

  async function call(method: string, path: string, body?: unknown, options: Options = {}) {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      redirect: "manual",
      headers: {
        Origin: baseUrl,
        Cookie: [...jar].map(([name, value]) => `${name}=${value}`).join("; "),
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    remember(response);
    if (response.status === 409) return response;
    if (response.status === 401 && options.nullOn401) return null;
    const text = await response.text();
    if (!response.ok) {
      let message: unknown;
      try {
        message = (JSON.parse(text) as { message?: unknown }).message;
      } catch {
        // not JSON: the status line stands in
      }
      throw new SpecClientError(
        response.status,
        typeof message === "string"
          ? message
          : `${response.status}: ${text || response.statusText}`,
      );
    }
    return text === "" ? null : (JSON.parse(text) as unknown);
  }

  type Json = Record<string, unknown>;
  const get = (path: string, options?: Options) => call("GET", path, undefined, options);
  return {
    currentUser: () => get("/api/user", { nullOn401: true }),
    login: (username: string, password: string) =>
      call("POST", "/api/login", { username, password }),
    register: (payload: Json) => call("POST", "/api/register", payload),
    logout: () => call("POST", "/api/logout"),
    updateProfile: (id: number, profile: Json) => call("PUT", `/api/users/${id}/profile`, profile),
    services: (activeOnly: boolean) =>
      get(`/api/services?activeOnly=${activeOnly}`, { nullOn401: true }),
    validateCoupon: (code: string) => get(`/api/coupons/validate/${encodeURIComponent(code)}`),
    checkConflicts: (date: string, time: string, hours: number) =>
      get(
        `/api/bookings/check-conflicts?recordingDate=${date}&recordingTime=${time}&hoursNeeded=${hours}`,
      ),
    createBooking: (payload: Json) => call("POST", "/api/bookings", payload),
    bookings: () => get("/api/bookings"),
    payDirect: (id: number, card: Json) =>
      call("POST", `/api/bookings/${id}/payments/direct`, card),
    admin: {
      users: () => get("/api/admin/users"),
      bookings: () => get("/api/admin/bookings"),
      techAssistance: () => get("/api/admin/tech-assistance"),
      coupons: () => get("/api/admin/coupons"),
      payments: () => get("/api/admin/payments"),
      changeBookingStatus: (id: number, status: string) =>
        call("PUT", `/api/admin/bookings/${id}`, { status }),
      makeAdmin: (id: number) => call("PUT", `/api/admin/users/${id}/make-admin`),
      membership: (id: number, isMember: boolean) =>
        call("PUT", `/api/admin/users/${id}/membership`, { isMember }),
      createCoupon: (coupon: Json) => call("POST", "/api/admin/coupons", coupon),
      deactivateCoupon: (id: number) => call("PUT", `/api/admin/coupons/${id}/deactivate`, {}),
      createService: (service: Json) => call("POST", "/api/services", service),
    },
  };
}
