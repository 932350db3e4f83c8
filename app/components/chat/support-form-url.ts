/** Apart from help-link.tsx, so a first load does not carry the chat's code. */
export const SUPPORT_FORM_URL = "/dashboard?tab=support";
