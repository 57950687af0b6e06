/**
 * The platform's REST error: `{"code": <int>, "message": "..."}` with an HTTP status, and the
 * verbatim messages the gateway will meet. Token-endpoint errors have their own shape (oauth.ts).
 */
export class ZoomError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly headers: Record<string, string> = {},
    readonly errors?: { field: string; message: string }[],
  ) {
    super(message);
    this.name = 'ZoomError';
  }

  body(): Record<string, unknown> {
    return this.errors
      ? { code: this.code, message: this.message, errors: this.errors }
      : { code: this.code, message: this.message };
  }
}

export const zerr = {
  invalidToken: () => new ZoomError(401, 124, 'Invalid access token.'),
  expiredToken: () => new ZoomError(401, 124, 'Access token is expired.'),
  noToken: () => new ZoomError(401, 124, 'Requires an access token.'),
  missingScopes: (scopes: string[]) =>
    new ZoomError(400, 4711, `Invalid access token, does not contain scopes:[${scopes.join(', ')}].`),
  invalidJson: () => new ZoomError(400, 300, 'Request Body should be a valid JSON object.'),
  validation: (errors: { field: string; message: string }[]) =>
    new ZoomError(400, 300, 'Validation Failed.', {}, errors),
  badParam: (name: string) => new ZoomError(400, 300, `Invalid parameter: ${name}.`),
  badPageToken: () => new ZoomError(400, 300, 'The next page token is invalid or expired.'),
  userNotFound: (id: string) => new ZoomError(404, 1001, `User does not exist: ${id}.`),
  meetingNotFound: (id: string) => new ZoomError(404, 3001, `Meeting does not exist: ${id}.`),
  noRecording: () => new ZoomError(404, 3301, 'There is no recording for this meeting.'),
  noTranscript: () => new ZoomError(404, 3322, 'This meeting transcript does not exist.'),
  webinarPlanMissing: () =>
    new ZoomError(
      400,
      200,
      'Webinar plan is missing. You must subscribe to the webinar plan and enable webinars for this user in order to perform this action.',
    ),
  notFound: (what = 'Not Found.') => new ZoomError(404, 404, what),
};
