import { describe, expect, it } from "vitest";
import { parseService, SERVICE_MESSAGES } from "#app/domain/services";

const valid = { name: " Video package ", description: "Two cameras", price: "150", duration: "" };

describe("parseService", () => {
  it("trims, reads whole dollars and stores a blank duration as null", () => {
    expect(parseService(valid)).toEqual({
      service: { name: "Video package", description: "Two cameras", price: 150, duration: null },
    });
    expect(parseService({ ...valid, price: 150, duration: 60 })).toEqual({
      service: { name: "Video package", description: "Two cameras", price: 150, duration: 60 },
    });
    expect(parseService({ ...valid, duration: null })).toMatchObject({
      service: { duration: null },
    });
  });

  it("uses the texts of docs/product.md 'Validation'", () => {
    expect(SERVICE_MESSAGES.title).toBe("Validation Error");
    expect(SERVICE_MESSAGES.required).toBe("Name, description, and price are required.");
    expect(SERVICE_MESSAGES.price).toBe("Price must be a positive number.");
    expect(SERVICE_MESSAGES.duration).toBe("Duration must be a positive number.");
  });

  it("requires name, description and price, and says so first", () => {
    const result = parseService({ name: " ", description: "", price: "-1", duration: "0" });
    expect(result).toEqual({
      errors: {
        name: SERVICE_MESSAGES.required,
        description: SERVICE_MESSAGES.required,
        price: SERVICE_MESSAGES.price,
        duration: SERVICE_MESSAGES.duration,
      },
      message: SERVICE_MESSAGES.required,
    });
    expect(parseService({ ...valid, price: "" })).toMatchObject({
      message: SERVICE_MESSAGES.required,
    });
    expect(parseService({ description: "x", price: 1 })).toMatchObject({
      message: SERVICE_MESSAGES.required,
    });
  });

  it("takes only whole positive prices", () => {
    for (const price of [
      "0",
      "-5",
      "12.5",
      "1e3",
      "0x10",
      "abc",
      0,
      -1,
      2.5,
      Number.NaN,
      true,
      [],
      {},
    ]) {
      expect(parseService({ ...valid, price }), String(price)).toEqual({
        errors: { price: SERVICE_MESSAGES.price },
        message: SERVICE_MESSAGES.price,
      });
    }
    expect(parseService({ ...valid, price: "100001" })).toMatchObject({
      message: SERVICE_MESSAGES.priceHigh,
    });
    expect(parseService({ ...valid, price: "9".repeat(30) })).toMatchObject({
      message: SERVICE_MESSAGES.price,
    });
  });

  it("takes only whole positive durations when one is given", () => {
    for (const duration of ["0", "-30", "1.5", "abc", 0]) {
      expect(parseService({ ...valid, duration }), String(duration)).toMatchObject({
        errors: { duration: SERVICE_MESSAGES.duration },
        message: SERVICE_MESSAGES.duration,
      });
    }
    expect(parseService({ ...valid, duration: "1441" })).toMatchObject({
      message: SERVICE_MESSAGES.durationHigh,
    });
  });

  it("bounds the texts", () => {
    expect(parseService({ ...valid, name: "n".repeat(101) })).toMatchObject({
      message: SERVICE_MESSAGES.nameLong,
    });
    expect(parseService({ ...valid, description: "d".repeat(1001) })).toMatchObject({
      message: SERVICE_MESSAGES.descriptionLong,
    });
  });
});
