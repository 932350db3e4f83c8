/** Never the password hash. */
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
