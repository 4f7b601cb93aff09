/**
 * Title check: request body and the four result variants (spec 'Title check result'; the other
 * variants and the synchronous operation come from facts §6.4). Every member of a found record is
 * present; values may be null.
 *
 * Built with the module, unlike the other screening schemas (`z.lazy`, built on first need): the workflows'
 * title step derives its body from the request (`.pick`), and a `z.lazy` under `.nullable()` or in a
 * discriminated union changes the document (its nullable members, the answer's discriminator).
 */
import { z } from '@hono/zod-openapi';
import { EmailSchema, nameField } from './screening.schemas.ts';

export const TitleCheckRequestSchema = z
  .object({
    email: EmailSchema,
    firstName: nameField('firstName', 'Jane'),
    lastName: nameField('lastName', 'Doe'),
    address: z
      .string({
        error: (issue) =>
          issue.input === undefined ? 'address is required: send the US property address, 1-500 characters' : 'address must be a string of 1-500 characters',
      })
      .min(1, { error: 'address must not be empty: send the US property address, 1-500 characters', abort: true })
      .max(500, 'address is too long: send at most 500 characters')
      .refine((value) => value.trim().length > 0, 'address must contain a non-space character')
      .openapi({ example: '1 Sandbox Way, Springfield, IL 62701' }),
  })
  .openapi('TitleCheckRequest');
export type TitleCheckRequest = z.infer<typeof TitleCheckRequestSchema>;

const str = z.string().nullable();
const num = z.number().nullable();
const int = z.number().int().nullable();

export const SubjectPropertySchema = z
  .object({
    APNFormatted: str,
    APNUnformatted: str,
    PropertyFullStreetAddress: str,
    PropertyCity: str,
    PropertyState: str,
    PropertyZipCode: str,
    PropertyCounty: str,
    LegalDescription: str,
    PropertyType: str,
    LandUseCode: str,
    LandUseDescription: str,
    Zoning: str,
    LotSizeAcres: num,
    LotSizeSqFt: num,
    BuildingAreaSqFt: num,
    Stories: num,
    Bathrooms: num,
    YearBuilt: int,
    Bedrooms: int,
  })
  .openapi('TitleSubjectProperty');

export const OwnerInformationSchema = z
  .object({
    Owner1LastName: str,
    Owner1FirstNameMiddleInitial: str,
    Owner2LastName: str,
    Owner2FirstNameMiddleInitial: str,
    MailingFullStreetAddress: str,
    MailingCity: str,
    MailingState: str,
    MailingZipCode: str,
    VestingOwnershipRights: str,
    OwnerOccupied: str,
  })
  .openapi('TitleOwnerInformation');

export const LocationInformationSchema = z
  .object({
    County: str,
    CensusTract: str,
    CensusBlock: str,
    Municipality: str,
    SchoolDistrict: str,
    FloodZone: str,
    FloodPanelNumber: str,
    Neighborhood: str,
  })
  .openapi('TitleLocationInformation');

export const OwnerTransferInformationSchema = z
  .object({
    TransferDocumentNumber: str,
    TransferRecordingDate: str,
    TransferSaleDate: str,
    TransferDeedType: str,
    TransferSalePrice: num,
  })
  .openapi('TitleOwnerTransferInformation');

export const LastMarketSaleInformationSchema = z
  .object({
    SaleDate: str,
    SaleDocumentNumber: str,
    SaleDeedType: str,
    RecordingDate: str,
    Buyer: str,
    Seller: str,
    SalePrice: num,
    PricePerSqFt: num,
  })
  .openapi('TitleLastMarketSaleInformation');

export const TitleCheckFoundSchema = z
  .object({
    status: z.literal('found'),
    subjectProperty: SubjectPropertySchema.nullable(),
    ownerInformation: OwnerInformationSchema.nullable(),
    locationInformation: LocationInformationSchema.nullable(),
    ownerTransferInformation: OwnerTransferInformationSchema.nullable(),
    lastMarketSaleInformation: LastMarketSaleInformationSchema.nullable(),
  })
  .openapi('TitleCheckFound');

export const TitleCheckMultiplePropertiesSchema = z
  .object({
    status: z.literal('multiple_properties'),
    message: z.string(),
    availableUnits: z.array(z.string()),
    properties: z.array(z.object({ owner: z.string(), apartmentOrUnit: z.string() })),
  })
  .openapi('TitleCheckMultipleProperties');

export const TitleCheckUnsupportedRegionSchema = z
  .object({ status: z.literal('unsupported_region'), message: z.string() })
  .openapi('TitleCheckUnsupportedRegion');

export const TitleCheckNotFoundSchema = z.object({ status: z.literal('not_found'), message: z.string() }).openapi('TitleCheckNotFound');

export const TitleCheckResponseSchema = z
  .discriminatedUnion('status', [TitleCheckFoundSchema, TitleCheckMultiplePropertiesSchema, TitleCheckUnsupportedRegionSchema, TitleCheckNotFoundSchema])
  .openapi('TitleCheckResponse');
export type TitleCheckResponse = z.infer<typeof TitleCheckResponseSchema>;
export type TitleCheckFound = z.infer<typeof TitleCheckFoundSchema>;
export type TitleCheckStatus = TitleCheckResponse['status'];
