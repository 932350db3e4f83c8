/**
 * What the browser and the JSON API may see of a user: never the password hash. The server
 * builds it from the users table (`toPublicUser` in models/user.server.ts); pages and
 * components take it as a prop.
 */
export type PublicUser = {
  id: number;
  username: string;
  isAdmin: boolean;
  isMember: boolean;
  firstName: string;
  lastName: string;
  businessName: string | null;
  phoneNumber: string;
  email: string;
  isStakeholder: boolean;
};
