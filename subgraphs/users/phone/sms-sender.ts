/** Sends SMS. The sandbox implementation logs the message instead of sending it. */
export interface SmsSender {
  readonly name: string;
  send(input: { to: string; body: string }): Promise<void>;
}
