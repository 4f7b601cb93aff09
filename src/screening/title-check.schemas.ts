/**
 * Title check: request body and the four result variants (spec 'Title check result'; the other
 * variants and the synchronous operation come from facts §6.4). Every member of a found record is
 * present; values may be null.
 *
 * The request is built with the module: the workflows' title step derives its body from it (`.pick`). The
 * answers are built together on first need, as the other screening schemas are (`z.lazy`): a check of an
 * answer or the document builds them, while the sessions area (which documents a found record in a
 * session's analysis_data) and screening's routes load without them. Only the two exports are lazy: a
 * `z.lazy` under `.nullable()` or in a discriminated union would change the document (its nullable
 * members, the answer's discriminator).
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

/** The answers' schemas, built once, on the first check of an answer or when the document is generated. */
let answers: ReturnType<typeof buildAnswers> | undefined;
const builtAnswers = () => (answers ??= buildAnswers());

function buildAnswers() {
  const str = z.string().nullable();
  const num = z.number().nullable();
  const int = z.number().int().nullable();

  const SubjectPropertySchema = z
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

  const OwnerInformationSchema = z
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

  const LocationInformationSchema = z
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

  const OwnerTransferInformationSchema = z
    .object({
      TransferDocumentNumber: str,
      TransferRecordingDate: str,
      TransferSaleDate: str,
      TransferDeedType: str,
      TransferSalePrice: num,
    })
    .openapi('TitleOwnerTransferInformation');

  const LastMarketSaleInformationSchema = z
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

  const FoundSchema = z
    .object({
      status: z.literal('found'),
      subjectProperty: SubjectPropertySchema.nullable(),
      ownerInformation: OwnerInformationSchema.nullable(),
      locationInformation: LocationInformationSchema.nullable(),
      ownerTransferInformation: OwnerTransferInformationSchema.nullable(),
      lastMarketSaleInformation: LastMarketSaleInformationSchema.nullable(),
    })
    .openapi('TitleCheckFound');

  const TitleCheckMultiplePropertiesSchema = z
    .object({
      status: z.literal('multiple_properties'),
      message: z.string(),
      availableUnits: z.array(z.string()),
      properties: z.array(z.object({ owner: z.string(), apartmentOrUnit: z.string() })),
    })
    .openapi('TitleCheckMultipleProperties');

  const TitleCheckUnsupportedRegionSchema = z.object({ status: z.literal('unsupported_region'), message: z.string() }).openapi('TitleCheckUnsupportedRegion');

  const TitleCheckNotFoundSchema = z.object({ status: z.literal('not_found'), message: z.string() }).openapi('TitleCheckNotFound');

  const ResponseSchema = z
    .discriminatedUnion('status', [FoundSchema, TitleCheckMultiplePropertiesSchema, TitleCheckUnsupportedRegionSchema, TitleCheckNotFoundSchema])
    .openapi('TitleCheckResponse');
  return { found: FoundSchema, response: ResponseSchema };
}

export const TitleCheckFoundSchema = z.lazy(() => builtAnswers().found);
export const TitleCheckResponseSchema = z.lazy(() => builtAnswers().response);
export type TitleCheckResponse = z.infer<typeof TitleCheckResponseSchema>;
export type TitleCheckFound = z.infer<typeof TitleCheckFoundSchema>;
export type TitleCheckStatus = TitleCheckResponse['status'];
