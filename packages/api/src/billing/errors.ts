// The one failure of the billing service: the HTTP status and the
// client-safe detail to answer with (routes map it; billingCall).
export class BillingError extends Error {
  readonly status: number;
  constructor(status: number, detail: string) {
    super(detail);
    this.status = status;
  }
}
