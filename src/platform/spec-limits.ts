/** Limits the spec states once ('Limits'), shared by the areas that enforce them. */

/** Image size: 15 MB per image, counted as 15 × 1024 × 1024 bytes as the real client checks before upload. */
export const IMAGE_MAX_BYTES = 15 * 1024 * 1024;
