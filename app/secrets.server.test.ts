import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  isSealed,
  type SealingKeys,
  seal,
  sealedUnderCurrent,
  sha256Hex,
  UnsealError,
  unseal,
} from "#app/secrets.server";

const keyA = randomBytes(32);
const keyB = randomBytes(32);
const onlyA: SealingKeys = { current: keyA, previous: [] };
const onlyB: SealingKeys = { current: keyB, previous: [] };
const rotatedToB: SealingKeys = { current: keyB, previous: [keyA] };

/** The sealed value with one byte of its ciphertext or tag flipped. */
function tampered(sealed: string): string {
  const parts = sealed.split(".");
  const body = Buffer.from(parts[3] ?? "", "base64url");
  body[0] = (body[0] ?? 0) ^ 1;
  parts[3] = body.toString("base64url");
  return parts.join(".");
}

describe("sealing secrets at rest", () => {
  it("opens what it sealed, and the sealed text does not hold the secret", () => {
    const sealed = seal(onlyA, "totp-secret", "JBSWY3DPEHPK3PXP");
    expect(sealed).not.toContain("JBSWY3DPEHPK3PXP");
    expect(isSealed(sealed)).toBe(true);
    expect(isSealed("JBSWY3DPEHPK3PXP")).toBe(false);
    expect(unseal(onlyA, "totp-secret", sealed)).toBe("JBSWY3DPEHPK3PXP");
    // A fresh IV each time: equal secrets do not show as equal rows.
    expect(seal(onlyA, "totp-secret", "JBSWY3DPEHPK3PXP")).not.toBe(sealed);
  });

  it("refuses an altered value", () => {
    const sealed = seal(onlyA, "feed-token", "token");
    expect(() => unseal(onlyA, "feed-token", tampered(sealed))).toThrow(UnsealError);
    expect(() => unseal(onlyA, "feed-token", sealed.slice(0, -4))).toThrow(UnsealError);
    expect(() => unseal(onlyA, "feed-token", "token")).toThrow(UnsealError);
  });

  it("refuses a value sealed for another purpose", () => {
    const sealed = seal(onlyA, "feed-token", "token");
    expect(() => unseal(onlyA, "totp-secret", sealed)).toThrow(UnsealError);
  });

  it("refuses a value under a key it does not have", () => {
    const sealed = seal(onlyA, "totp-secret", "secret");
    expect(() => unseal(onlyB, "totp-secret", sealed)).toThrow(UnsealError);
    // Even when the other key claims the same name, the tag does not match.
    const forged = sealed.replace(/^v1\.[^.]+\./, seal(onlyB, "totp-secret", "x").slice(0, 12));
    expect(() => unseal(onlyB, "totp-secret", forged)).toThrow(UnsealError);
  });

  it("rotation: the previous key still opens, new seals are under the current key", () => {
    const old = seal(onlyA, "totp-secret", "secret");
    expect(sealedUnderCurrent(rotatedToB, old)).toBe(false);
    expect(unseal(rotatedToB, "totp-secret", old)).toBe("secret");
    const resealed = seal(rotatedToB, "totp-secret", unseal(rotatedToB, "totp-secret", old));
    expect(sealedUnderCurrent(rotatedToB, resealed)).toBe(true);
    expect(unseal(onlyB, "totp-secret", resealed)).toBe("secret");
    expect(() => unseal(onlyA, "totp-secret", resealed)).toThrow(UnsealError);
  });
});

describe("hashing bearer secrets", () => {
  it("is SHA-256 in hex", () => {
    expect(sha256Hex("abc")).toBe(
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    );
  });
});
