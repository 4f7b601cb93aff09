import { clientRoute } from '../platform/http/client-route.ts';
import { extraErrors, jsonBody, jsonResponse } from '../platform/http/routing.ts';
import {
  CreateProfileBodySchema,
  LogoUploadUrlBodySchema,
  LogoUploadUrlResponseSchema,
  ProfileIdParamsSchema,
  ProfileListResponseSchema,
  ProfileSchema,
} from './profiles.schemas.ts';

const TAGS = ['Profiles'];

export const logoUploadUrlRoute = clientRoute('profiles.createLogoUploadUrl', {
  method: 'post',
  path: '/v1/profiles/logo-upload-url',
  operationId: 'createProfileLogoUploadUrl',
  tags: TAGS,
  summary: 'A presigned URL for a profile logo',
  request: { body: jsonBody(LogoUploadUrlBodySchema) },
  responses: { 200: jsonResponse(LogoUploadUrlResponseSchema, 'Where to PUT the logo, and its fileKey') },
});

export const createProfileRoute = clientRoute('profiles.create', {
  method: 'post',
  path: '/v1/profiles',
  operationId: 'createProfile',
  tags: TAGS,
  summary: 'Create a profile (name, optional logo)',
  description: 'logoUrl is the fileKey of the logo upload URL, once the PUT has arrived (403 before, or for another organization’s key).',
  request: { body: jsonBody(CreateProfileBodySchema) },
  responses: { 200: jsonResponse(ProfileSchema, 'The profile') },
});

export const listProfilesRoute = clientRoute('profiles.list', {
  method: 'get',
  path: '/v1/profiles',
  operationId: 'listProfiles',
  tags: TAGS,
  summary: 'The organization’s profiles, newest first',
  responses: { 200: jsonResponse(ProfileListResponseSchema, 'Every profile of the organization') },
});

export const getProfileRoute = clientRoute('profiles.retrieve', {
  method: 'get',
  path: '/v1/profiles/{id}',
  operationId: 'getProfile',
  tags: TAGS,
  summary: 'Retrieve a profile',
  request: { params: ProfileIdParamsSchema },
  responses: { 200: jsonResponse(ProfileSchema, 'The profile'), 403: extraErrors[403], 404: extraErrors[404] },
});

export const PROFILE_ROUTES = [logoUploadUrlRoute, createProfileRoute, listProfilesRoute, getProfileRoute] as const;
