import { randomBytes, randomInt } from "node:crypto";
import type { CardIssuer, CardIssueRequest, IssuedCard } from "./card-issuer.ts";

/** The sandbox's test BIN: numbers on it are Luhn-valid and never reach a card network. */
export const SANDBOX_BIN = "400002";

/** The Luhn check digit that makes `digits` + it a valid card number. */
export function luhnCheckDigit(digits: string): string {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 0) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return String((10 - (sum % 10)) % 10);
}

export function isLuhnValid(number: string): boolean {
  return /^[0-9]{12,19}$/.test(number) && luhnCheckDigit(number.slice(0, -1)) === number.at(-1);
}

/**
 * Issues test cards offline: a 16-digit Luhn-valid number on SANDBOX_BIN, a three-digit CVV and an
 * expiry three years out; virtual cards are confirmed at once, physical ones wait for activation.
 */
export class SandboxCardIssuer implements CardIssuer {
  readonly name = "sandbox";

  async issue(request: CardIssueRequest, now: Date = new Date()): Promise<IssuedCard> {
    const account = Array.from({ length: 9 }, () => randomInt(10)).join("");
    const body = `${SANDBOX_BIN}${account}`;
    return {
      issuer_card_id: `sbx_card_${randomBytes(8).toString("hex")}`,
      number: body + luhnCheckDigit(body),
      cvv: String(randomInt(1000)).padStart(3, "0"),
      expiry_month: now.getUTCMonth() + 1,
      expiry_year: now.getUTCFullYear() + 3,
      confirmed: request.type === "virtual",
    };
  }

  async setStatus(): Promise<void> {
    // the sandbox network has nothing to tell
  }
}
