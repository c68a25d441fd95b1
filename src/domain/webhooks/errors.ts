// A refused webhook action; the message is the Portuguese sentence the web app shows.
export type WebhookErrorCode = 'invalid_url' | 'forbidden_destination' | 'limit_reached' | 'not_found';

export class WebhookError extends Error {
  constructor(
    readonly code: WebhookErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'WebhookError';
  }
}
