/**
 * An emulation of the service's real TypeScript client, from the published facts about that client only,
 * talking to an in-process test sandbox. It sends what the client sends (§1 transport, §6 wire bodies,
 * §3a uploads) and accepts what the client accepts: every 2xx body must parse as JSON and then with the
 * mirrored schema of ./schemas.ts; every non-2xx becomes an error of the class the client would raise
 * (§1a), with `err.response = { status, headers, body }`.
 *
 * LIMITATIONS:
 * - No retries, timeouts or events (the contract under test is the bodies and statuses, not the timing);
 *   `retryAfter` is parsed as the client would and exposed for assertions instead.
 * - Client-side input validation is not emulated beyond the async-job UUID check and the JPEG/PNG
 *   upload type check, which decide whether a request is sent at all.
 */
import { z } from 'zod';
import type { TestSandbox } from '../../helpers/sandbox.ts';
import * as S from './schemas.ts';
import * as N from './schemas-not-in-spec.ts';

/** The SDK error class names and their fixed `code`, by status (facts §1a). */
const ERROR_CLASSES: Record<number, { name: string; code: string }> = {
  400: { name: 'ValidationError', code: 'validation_error' },
  401: { name: 'AuthenticationError', code: 'authentication_error' },
  402: { name: 'InsufficientFundsError', code: 'insufficient_funds_error' },
  403: { name: 'AuthorizationError', code: 'authorization_error' },
  404: { name: 'NotFoundError', code: 'not_found_error' },
  409: { name: 'ConflictError', code: 'conflict_error' },
  429: { name: 'RateLimitError', code: 'rate_limit_error' },
  503: { name: 'ServiceUnavailableError', code: 'service_unavailable_error' },
};

export interface ErrorResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** What the client throws for a non-2xx answer, an upload failure or a local refusal. */
export class SdkError extends Error {
  constructor(
    readonly className: string,
    readonly code: string,
    message: string,
    readonly status?: number,
    readonly response?: ErrorResponse,
    /** Seconds, from `retry-after` (integer or HTTP date), on retryable statuses only. */
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = className;
  }
}

/** A 2xx body the client could not read: not JSON, or rejected by the mirrored schema. */
export class ContractViolation extends Error {
  constructor(operation: string, method: string, path: string, status: number, reason: string, text: string) {
    super(`${operation} (${method} ${path} -> ${status}) would throw in the real client: ${reason}\nbody: ${text.slice(0, 1500)}`);
    this.name = 'ContractViolation';
  }
}

/** Message extraction of facts §1a, in order. */
export function sdkMessage(status: number, body: unknown): string {
  if (typeof body === 'string' && body.trim() !== '') return body.trim();
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const record = body as Record<string, unknown>;
    if (typeof record.message === 'string') return record.message;
    if (typeof record.error === 'string') return record.error;
  }
  return `HTTP ${status}`;
}

/** Retry-After as the client reads it: integer seconds, or an HTTP date (seconds until then, min 0). */
export function parseRetryAfter(value: string | null, nowMs: number): number | undefined {
  if (value === null) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - nowMs) / 1000));
}

export interface Exchange {
  operation: string;
  method: string;
  path: string;
  status: number;
}

type Query = Record<string, string | number | boolean | undefined>;

interface RequestSpec<T extends z.ZodType> {
  operation: string;
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  path: string;
  query?: Query;
  body?: unknown;
  headers?: Record<string, string>;
  schema: T;
}

export interface Answer<T> {
  data: T;
  status: number;
  headers: Headers;
  /** The body as parsed JSON, before the schema stripped anything. */
  raw: unknown;
}

let idempotencySerial = 0;

const JPEG_MAGIC = [0xff, 0xd8, 0xff];
const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47];

function detectContentType(bytes: Uint8Array): 'image/jpeg' | 'image/png' {
  const starts = (magic: number[]) => magic.every((byte, index) => bytes[index] === byte);
  if (starts(JPEG_MAGIC)) return 'image/jpeg';
  if (starts(PNG_MAGIC)) return 'image/png';
  throw new SdkError('ValidationError', 'validation_error', 'Unsupported image: only JPEG and PNG are accepted', 400);
}

type DocumentType = 'passport' | 'drivers_license' | 'national_id' | 'auto';

export interface SessionCreateInput {
  email: string;
  firstName: string;
  lastName: string;
  phone?: string;
  externalId?: string;
  sendEmailInvite?: boolean;
  sendPhoneInvite?: boolean;
  workflowId?: string;
  redirectUrl?: string;
  expiresInHours?: number;
}

export interface PersonInput {
  firstName: string;
  lastName: string;
  dateOfBirth: string;
  email?: string;
}

export interface PhoneInput {
  phone?: string;
  sessionId?: string;
  email?: string;
  firstName?: string;
  lastName?: string;
}

export class RealClient {
  /** Every request sent, in order (uploads included), for coverage assertions. */
  readonly exchanges: Exchange[] = [];

  constructor(
    private readonly sandbox: TestSandbox,
    private readonly apiKey: string,
    private readonly options: { namespace?: string; headers?: Record<string, string> } = {},
  ) {}

  // ─── Transport (§1) ───────────────────────────────────────────────────────────────────────────────

  async request<T extends z.ZodType>(spec: RequestSpec<T>): Promise<Answer<z.infer<T>>> {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(spec.query ?? {})) if (value !== undefined) search.set(name, String(value));
    const path = search.size > 0 ? `${spec.path}?${search}` : spec.path;
    // Custom headers first: the client's own (x-api-key, accept, content-type, Idempotency-Key) win.
    const headers: Record<string, string> = { ...this.options.headers, ...spec.headers, 'x-api-key': this.apiKey, accept: 'application/json' };
    if (this.options.namespace) headers['x-sandbox-namespace'] = this.options.namespace;
    const init: RequestInit = { method: spec.method, headers };
    if (spec.body !== undefined) {
      headers['content-type'] = 'application/json';
      init.body = JSON.stringify(spec.body);
    }
    const response = await this.sandbox.app.request(path, init);
    const text = await response.text();
    this.exchanges.push({ operation: spec.operation, method: spec.method, path, status: response.status });
    if (!response.ok) throw this.errorFrom(response, text);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new ContractViolation(spec.operation, spec.method, path, response.status, `response.json() fails (${(error as Error).message})`, text);
    }
    const parsed = spec.schema.safeParse(json);
    if (!parsed.success) throw new ContractViolation(spec.operation, spec.method, path, response.status, `ZodError ${z.prettifyError(parsed.error)}`, text);
    return { data: parsed.data, status: response.status, headers: response.headers, raw: json };
  }

  private errorFrom(response: Response, text: string): SdkError {
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // the client keeps the raw text
    }
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      headers[name.toLowerCase()] = value;
    });
    const known = ERROR_CLASSES[response.status] ?? { name: 'ApiError', code: 'api_error' };
    const retryable = response.status === 429 || (response.status >= 500 && response.status <= 599);
    const retryAfter = retryable ? parseRetryAfter(response.headers.get('retry-after'), this.sandbox.clock.now()) : undefined;
    return new SdkError(known.name, known.code, sdkMessage(response.status, body), response.status, { status: response.status, headers, body }, retryAfter);
  }

  // ─── Generic upload (§3a) ─────────────────────────────────────────────────────────────────────────

  /** Presign once for all files, PUT each (no API key), return the file keys in request order. */
  async upload(files: Uint8Array[]): Promise<string[]> {
    const types = files.map(detectContentType);
    const presign = await this.request({
      operation: 'upload.presign',
      method: 'POST',
      path: '/v1/upload/presign',
      body: { files: files.map((bytes, index) => ({ contentType: types[index], byteLength: bytes.length })) },
      schema: S.PresignResponseSchema,
    });
    const { uploads } = presign.data;
    if (uploads.length !== files.length)
      throw new SdkError('ApiError', 'invalid_presign_response', `presign returned ${uploads.length} uploads for ${files.length} files`);
    await Promise.all(
      uploads.map(async (upload, index) => {
        const url = new URL(upload.uploadUrl);
        const response = await this.sandbox.app.request(url.pathname + url.search, {
          method: 'PUT',
          headers: { 'content-type': types[index] as string },
          body: files[index] as Uint8Array<ArrayBuffer>,
        });
        await response.arrayBuffer();
        this.exchanges.push({ operation: 'upload.put', method: 'PUT', path: url.pathname, status: response.status });
        if (response.status === 403) throw new SdkError('ApiError', 'upload_url_expired', 'upload URL expired', 403);
        if (!response.ok) throw new SdkError('ApiError', 'upload_error', `upload failed with HTTP ${response.status}`, response.status);
      }),
    );
    return uploads.map((upload) => upload.fileKey);
  }

  // ─── Modules (§6) ─────────────────────────────────────────────────────────────────────────────────

  readonly sessions = {
    create: (input: SessionCreateInput) =>
      this.request({ operation: 'sessions.create', method: 'POST', path: '/v1/sessions', body: input, schema: S.SessionCreateResponseSchema }),
    retrieve: (id: string) =>
      this.request({ operation: 'sessions.retrieve', method: 'GET', path: `/v1/sessions/${encodeURIComponent(id)}`, schema: S.SessionRetrieveResponseSchema }),
    list: (
      params: {
        limit?: number;
        nextToken?: string;
        startDate?: string;
        endDate?: string;
        byOrganization?: boolean;
        externalId?: string;
        workflowId?: string;
      } = {},
    ) =>
      this.request({
        operation: 'sessions.list',
        method: 'GET',
        path: '/v1/sessions',
        query: {
          limit: params.limit,
          next_token: params.nextToken,
          start_date: params.startDate,
          end_date: params.endDate,
          by_organization: params.byOrganization,
          external_id: params.externalId,
          workflow_id: params.workflowId,
        },
        schema: S.SessionListResponseSchema,
      }),
    updateStatus: (id: string, status: 'VERIFIED' | 'REJECTED') =>
      this.request({
        operation: 'sessions.updateStatus',
        method: 'PATCH',
        path: `/v1/sessions/${encodeURIComponent(id)}/update-status`,
        body: { new_status: status },
        schema: S.SessionUpdateStatusResponseSchema,
      }),
    createUploadUrls: (id: string, files: ({ file_name: string; content_type: string } & ({ upload_type: string } | { slot: string }))[]) =>
      this.request({
        operation: 'sessions.createUploadUrls',
        method: 'POST',
        path: `/v1/sessions/${encodeURIComponent(id)}/uploads`,
        body: { files },
        schema: S.SessionUploadUrlsResponseSchema,
      }),
  };

  readonly document = {
    scan: async (input: { image: Uint8Array; documentType?: DocumentType }) => {
      const [image] = await this.upload([input.image]);
      return this.request({
        operation: 'document.scan',
        method: 'POST',
        path: '/v1/document/scan',
        body: { image, documentType: input.documentType ?? 'auto' },
        schema: S.DocumentScanResponseSchema,
      });
    },
  };

  readonly face = {
    detect: async (input: { image: Uint8Array }) => {
      const [image] = await this.upload([input.image]);
      return this.request({ operation: 'face.detect', method: 'POST', path: '/v1/face/detect', body: { image }, schema: S.FaceDetectResponseSchema });
    },
    compare: async (input: { source: Uint8Array; target: Uint8Array }) => {
      const [source, target] = await this.upload([input.source, input.target]);
      return this.request({
        operation: 'face.compare',
        method: 'POST',
        path: '/v1/face/compare',
        body: { source, target },
        schema: S.FaceCompareResponseSchema,
      });
    },
    estimateAge: async (input: { image: Uint8Array }) => {
      const [image] = await this.upload([input.image]);
      return this.request({
        operation: 'face.estimateAge',
        method: 'POST',
        path: '/v1/face/estimate-age',
        body: { image },
        schema: S.FaceEstimateAgeResponseSchema,
      });
    },
    createLivenessSession: (input: { sessionId?: string; challengeType?: 'FaceMovementChallenge' | 'FaceMovementAndLightChallenge' } = {}) =>
      this.request({
        operation: 'face.createLivenessSession',
        method: 'POST',
        path: '/v1/face/liveness/sessions',
        body: { session_id: input.sessionId, challenge_type: input.challengeType },
        schema: S.LivenessSessionResponseSchema,
      }),
    getLivenessResult: (livenessSessionId: string, params: { sessionId?: string; confidenceThreshold?: number } = {}) =>
      this.request({
        operation: 'face.getLivenessResult',
        method: 'GET',
        path: `/v1/face/liveness/sessions/${encodeURIComponent(livenessSessionId)}/result`,
        query: { session_id: params.sessionId, confidence_threshold: params.confidenceThreshold },
        schema: S.LivenessResultResponseSchema,
      }),
  };

  readonly identity = {
    verify: async (input: { documentImage: Uint8Array; faceImage: Uint8Array; documentType?: DocumentType }) => {
      const [documentImage, faceImage] = await this.upload([input.documentImage, input.faceImage]);
      return this.request({
        operation: 'identity.verify',
        method: 'POST',
        path: '/v1/identity/verify',
        body: { documentImage, faceImage, documentType: input.documentType },
        schema: S.IdentityVerifyResponseSchema,
      });
    },
  };

  readonly screening = {
    pepSanctions: (input: PersonInput) =>
      this.request({
        operation: 'screening.pepSanctions',
        method: 'POST',
        path: '/v1/screening/pep-sanctions',
        body: input,
        schema: S.PepSanctionsResponseSchema,
      }),
    /** Queues the job; the Idempotency-Key is the caller's or a fresh UUID v4 (deterministic here). */
    adverseMedia: (input: PersonInput & { country?: string }, options: { idempotencyKey?: string } = {}) =>
      this.request({
        operation: 'screening.adverseMedia',
        method: 'POST',
        path: '/v1/screening/adverse-media',
        headers: { 'Idempotency-Key': options.idempotencyKey ?? this.nextIdempotencyKey() },
        body: { ...input, country: input.country?.toUpperCase() },
        schema: S.AdverseMediaQueuedResponseSchema,
      }),
    titleCheck: (input: { email: string; firstName: string; lastName: string; address: string }) =>
      this.request({ operation: 'screening.titleCheck', method: 'POST', path: '/v1/screening/title-check', body: input, schema: S.TitleCheckResponseSchema }),
    carrierAgeGate: (input: PhoneInput) =>
      this.request({
        operation: 'screening.carrierAgeGate',
        method: 'POST',
        path: '/v1/screening/carrier-age-gate',
        body: input,
        schema: S.CarrierAgeGateResponseSchema,
      }),
    phoneOwnership: (input: PhoneInput & { address?: string; dateOfBirth?: string; strictness?: 'relaxed' | 'medium' | 'strict' }) =>
      this.request({
        operation: 'screening.phoneOwnership',
        method: 'POST',
        path: '/v1/screening/phone-ownership',
        body: input,
        schema: S.PhoneOwnershipResponseSchema,
      }),
    phoneTrust: (input: PhoneInput & { sensitivity?: 'low' | 'medium' | 'high' }) =>
      this.request({ operation: 'screening.phoneTrust', method: 'POST', path: '/v1/screening/phone-trust', body: input, schema: S.PhoneTrustResponseSchema }),
  };

  readonly asyncJobs = {
    /** The generic poll; a non-UUID id is refused locally (never sent), as the client does. */
    get: async (jobId: string) => {
      this.requireUuid(jobId);
      return this.request({ operation: 'asyncJobs.get', method: 'GET', path: `/v1/async-jobs/${encodeURIComponent(jobId)}`, schema: S.AsyncJobResponseSchema });
    },
    /** The adverse-media handle's refresh: a ready result must be a full AdverseMediaResult. */
    getAdverseMedia: async (jobId: string) => {
      this.requireUuid(jobId);
      return this.request({
        operation: 'asyncJobs.get',
        method: 'GET',
        path: `/v1/async-jobs/${encodeURIComponent(jobId)}`,
        schema: S.AdverseMediaJobResponseSchema,
      });
    },
  };

  readonly financial = {
    create: (input: {
      email: string;
      firstName: string;
      lastName: string;
      phone: string;
      period?: '3' | '6' | '9';
      externalId?: string;
      sendEmailInvite?: boolean;
      sendPhoneInvite?: boolean;
    }) => this.request({ operation: 'financial.create', method: 'POST', path: '/v1/financial', body: input, schema: S.FinancialCreateResponseSchema }),
    list: (params: { nextToken?: string } = {}) =>
      this.emptyPageOn404(
        this.request({
          operation: 'financial.list',
          method: 'GET',
          path: '/v1/financial',
          query: { nextToken: params.nextToken },
          schema: S.FinancialListResponseSchema,
        }),
        { bankStatements: [], nextToken: null },
      ),
    retrieve: (id: string) =>
      this.request({ operation: 'financial.retrieve', method: 'GET', path: `/v1/financial/${encodeURIComponent(id)}`, schema: S.FinancialRecordSchema }),
    listByExternalId: (externalId: string, params: { nextToken?: string } = {}) =>
      this.emptyPageOn404(
        this.request({
          operation: 'financial.listByExternalId',
          method: 'GET',
          path: `/v1/financial/externalId/${encodeURIComponent(externalId)}`,
          query: { nextToken: params.nextToken },
          schema: S.FinancialListResponseSchema,
        }),
        { bankStatements: [], nextToken: null },
      ),
  };

  readonly creditChecks = {
    createHard: (input: CreditCheckInput) =>
      this.request({
        operation: 'creditChecks.createHard',
        method: 'POST',
        path: '/v1/credit-check/hard',
        body: input,
        schema: S.CreditCheckCreateResponseSchema,
      }),
    createSoft: (input: CreditCheckInput) =>
      this.request({
        operation: 'creditChecks.createSoft',
        method: 'POST',
        path: '/v1/credit-check/soft',
        body: input,
        schema: S.CreditCheckCreateResponseSchema,
      }),
  };

  readonly auth = {
    verify: () => this.request({ operation: 'auth.verify', method: 'GET', path: '/v1/auth/verify', schema: S.AuthVerifyResponseSchema }),
  };

  // ─── Modules the spec does not describe (§6.6, §6.10, §6.11, §6.14, §6.15) ──────────────────────────

  readonly deepfake = {
    /** The sessionId must be a UUID: checked locally, as the client does. */
    getChallenge: async (sessionId: string) => {
      this.requireUuid(sessionId);
      return this.request({
        operation: 'deepfake.getChallenge',
        method: 'GET',
        path: `/v1/deepfake/challenge/${encodeURIComponent(sessionId)}`,
        schema: N.DeepfakeChallengeResponseSchema,
      });
    },
    createUploadUrls: (input: { sessionId: string; includeAudio: boolean }) =>
      this.request({
        operation: 'deepfake.createUploadUrls',
        method: 'POST',
        path: '/v1/deepfake/upload-urls',
        body: input,
        schema: N.DeepfakeUploadUrlsResponseSchema,
      }),
    analyze: (input: { scanDurationMs: number; challengeWord?: string; frameMeta: DeepfakeFrameMeta[]; s3Keys: Record<string, string> }) =>
      this.request({ operation: 'deepfake.analyze', method: 'POST', path: '/v1/deepfake/analyze', body: input, schema: N.DeepfakeAnalyzeResponseSchema }),
  };

  readonly profiles = {
    createLogoUploadUrl: (input: { contentType: LogoContentType; byteLength: number }) =>
      this.request({
        operation: 'profiles.createLogoUploadUrl',
        method: 'POST',
        path: '/v1/profiles/logo-upload-url',
        body: input,
        schema: N.LogoUploadUrlResponseSchema,
      }),
    /** Logo URL, PUT with the declared type (no API key), then returns the fileKey. */
    uploadLogo: async (input: { file: Uint8Array; contentType: LogoContentType }) => {
      const target = await this.profiles.createLogoUploadUrl({ contentType: input.contentType, byteLength: input.file.length });
      const status = await this.putTo(target.data.uploadUrl, input.file, input.contentType);
      if (status === 403) throw new SdkError('ApiError', 'upload_url_expired', 'upload URL expired', 403);
      if (status < 200 || status > 299) throw new SdkError('ApiError', 'upload_error', `upload failed with HTTP ${status}`, status);
      return target.data.fileKey;
    },
    /** `{name}`, `{name, logoUrl}`, or `{name, logo}` (uploaded first, then sent as logoUrl). */
    create: async (input: { name: string; logoUrl?: string; logo?: { file: Uint8Array; contentType: LogoContentType } }) => {
      const logoUrl = input.logo ? await this.profiles.uploadLogo(input.logo) : input.logoUrl;
      return this.request({ operation: 'profiles.create', method: 'POST', path: '/v1/profiles', body: { name: input.name, logoUrl }, schema: N.ProfileSchema });
    },
    list: () => this.request({ operation: 'profiles.list', method: 'GET', path: '/v1/profiles', schema: N.ProfileListResponseSchema }),
    retrieve: (id: string) =>
      this.request({ operation: 'profiles.retrieve', method: 'GET', path: `/v1/profiles/${encodeURIComponent(id)}`, schema: N.ProfileSchema }),
  };

  readonly creditTerms = {
    create: (input: CreditTermsInput) =>
      this.request({ operation: 'creditTerms.create', method: 'POST', path: '/v1/credit-terms', body: input, schema: N.CreditTermsCreateResponseSchema }),
    list: (params: { nextToken?: string } = {}) =>
      this.emptyPageOn404(
        this.request({
          operation: 'creditTerms.list',
          method: 'GET',
          path: '/v1/credit-terms',
          query: { nextToken: params.nextToken },
          schema: N.CreditTermsListResponseSchema,
        }),
        { creditTerms: [], nextToken: null },
      ),
    retrieve: (id: string) =>
      this.request({ operation: 'creditTerms.retrieve', method: 'GET', path: `/v1/credit-terms/${encodeURIComponent(id)}`, schema: N.CreditTermsRecordSchema }),
    listByExternalId: (externalId: string, params: { nextToken?: string } = {}) =>
      this.emptyPageOn404(
        this.request({
          operation: 'creditTerms.listByExternalId',
          method: 'GET',
          path: `/v1/credit-terms/externalId/${encodeURIComponent(externalId)}`,
          query: { nextToken: params.nextToken },
          schema: N.CreditTermsListResponseSchema,
        }),
        { creditTerms: [], nextToken: null },
      ),
  };

  readonly reVerifications = {
    create: (input: { workflowId: string; deviceFingerprint?: string }) =>
      this.request({
        operation: 'reVerifications.create',
        method: 'POST',
        path: '/v1/re-verifications',
        body: { workflow_id: input.workflowId, device_fingerprint: input.deviceFingerprint },
        schema: N.ReVerificationCreateResponseSchema,
      }),
    startLiveness: async (id: string) => {
      this.requireUuid(id);
      return this.request({
        operation: 'reVerifications.startLiveness',
        method: 'POST',
        path: `/v1/re-verifications/${encodeURIComponent(id)}/liveness/start`,
        body: {},
        schema: N.ReVerificationStartResponseSchema,
      });
    },
    createLivenessUploadUrl: async (id: string, input: { frameCount: number; clipMimeType?: 'video/webm' | 'video/mp4' }) => {
      this.requireUuid(id);
      return this.request({
        operation: 'reVerifications.createLivenessUploadUrl',
        method: 'POST',
        path: `/v1/re-verifications/${encodeURIComponent(id)}/liveness/upload-url`,
        body: { frame_count: input.frameCount, clip_mime_type: input.clipMimeType },
        schema: N.ReVerificationUploadUrlResponseSchema,
      });
    },
    completeLiveness: async (id: string) => {
      this.requireUuid(id);
      return this.request({
        operation: 'reVerifications.completeLiveness',
        method: 'POST',
        path: `/v1/re-verifications/${encodeURIComponent(id)}/liveness/complete`,
        body: {},
        schema: N.ReVerificationCompleteResponseSchema,
      });
    },
  };

  readonly ageVerification = {
    create: (input: AgeVerificationInput) =>
      this.request({
        operation: 'ageVerification.create',
        method: 'POST',
        path: '/v1/age-verification',
        body: input,
        schema: N.AgeVerificationCreateResponseSchema,
      }),
    listParentConnectRequests: (params: { limit?: number; nextToken?: string; childSessionId?: string; status?: string } = {}) =>
      this.request({
        operation: 'ageVerification.listParentConnectRequests',
        method: 'GET',
        path: '/v1/age-verification/parent-connect',
        query: { limit: params.limit, next_token: params.nextToken, child_session_id: params.childSessionId, status: params.status },
        schema: N.ParentConnectListResponseSchema,
      }),
    retrieveParentConnectRequest: (id: string) =>
      this.request({
        operation: 'ageVerification.retrieveParentConnectRequest',
        method: 'GET',
        path: `/v1/age-verification/parent-connect/${encodeURIComponent(id)}`,
        schema: N.ParentConnectRequestSchema,
      }),
    getBoundaries: (childAttestationId: string) =>
      this.request({
        operation: 'ageVerification.getBoundaries',
        method: 'GET',
        path: `/v1/age-verification/boundaries/${encodeURIComponent(childAttestationId)}`,
        schema: N.BoundariesResponseSchema,
      }),
  };

  /** A PUT to a URL an operation returned (the caller's own upload, no API key). */
  async putTo(uploadUrl: string, bytes: Uint8Array, contentType: string): Promise<number> {
    const url = new URL(uploadUrl);
    const response = await this.sandbox.app.request(url.pathname + url.search, {
      method: 'PUT',
      headers: { 'content-type': contentType },
      body: bytes as Uint8Array<ArrayBuffer>,
    });
    await response.arrayBuffer();
    this.exchanges.push({ operation: 'upload.put', method: 'PUT', path: url.pathname, status: response.status });
    return response.status;
  }

  // ─── Helpers ──────────────────────────────────────────────────────────────────────────────────────

  /** The operations answered 2xx so far (uploads included), for coverage assertions. */
  succeeded(): Set<string> {
    return new Set(this.exchanges.filter((exchange) => exchange.status >= 200 && exchange.status < 300).map((exchange) => exchange.operation));
  }

  private requireUuid(id: string): void {
    if (!z.uuid().safeParse(id).success) throw new SdkError('ValidationError', 'validation_error', `id must be a UUID, got ${JSON.stringify(id)}`, 400);
  }

  /** The client's list helpers turn a 404 into an empty page. */
  private async emptyPageOn404<T>(pending: Promise<Answer<T>>, empty: T): Promise<Answer<T>> {
    try {
      return await pending;
    } catch (error) {
      if (error instanceof SdkError && error.status === 404) return { data: empty, status: 404, headers: new Headers(), raw: null };
      throw error;
    }
  }

  /** The client sends a fresh UUID v4 per call; a process-wide serial keeps it unique and deterministic. */
  private nextIdempotencyKey(): string {
    idempotencySerial += 1;
    return `00000000-0000-4000-8000-${idempotencySerial.toString(16).padStart(12, '0')}`;
  }
}

export interface AgeVerificationInput {
  email: string;
  firstName: string;
  lastName: string;
  phone: string;
  method: 'quiz' | 'credit-card' | 'parent-connect';
  externalId?: string;
  sendEmailInvite?: boolean;
  sendPhoneInvite?: boolean;
  redirectUrl?: string;
  expiresInHours?: number;
  ageBand?: string;
  platformRestrictions?: Record<string, unknown>[];
  eulaUrl?: string;
}

export interface CreditTermsInput {
  firstName: string;
  lastName: string;
  businessName: string;
  businessEmail: string;
  businessAddress: string;
  requestedCreditAmount: number;
  requestedCreditPeriod?: '30' | '60' | '90';
  externalId?: string;
  sendEmailInvite?: boolean;
}

export type LogoContentType = 'image/jpeg' | 'image/png' | 'image/webp' | 'image/gif';

export interface DeepfakeFrameMeta {
  actionId: string;
  action: 'hold-still' | 'blink' | 'turn-left' | 'turn-right' | 'speak-prompt';
  timestamp: number;
  yaw: number;
  pitch: number;
  roll: number;
  leftEyeOpenness: number;
  rightEyeOpenness: number;
  faceDetected: boolean;
}

export interface CreditCheckInput {
  email: string;
  firstName: string;
  lastName: string;
  phone: string;
  externalId?: string;
  sendEmailInvite?: boolean;
  sendPhoneInvite?: boolean;
  redirectUrl?: string;
  uat?: boolean;
  uatType?: string;
}

/** Awaits `promise` and returns the SdkError it must throw. */
export async function sdkErrorOf(promise: Promise<unknown>): Promise<SdkError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof SdkError) return error;
    throw error;
  }
  throw new Error('expected the call to fail with an SdkError, but it succeeded');
}
