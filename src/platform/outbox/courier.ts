/** What delivers the outbox's e-mails (`--smtp`): below the world, which hands it each e-mail. */
import type { Delivery, OutboxMessage } from './outbox.schemas.ts';

/** Hands e-mails to a real mail server (`--smtp`); the outbox records each outcome on its message. */
export interface MessageCourier {
  /** host:port, named on each delivery. */
  readonly server: string;
  /** Starts delivering; `settle` is called once with the outcome (a failure is logged, never thrown). */
  dispatch(message: OutboxMessage, settle: (delivery: Delivery) => void): void;
  /** Resolves once every delivery started so far has been answered (tests, shutdown). */
  idle(): Promise<void>;
}
