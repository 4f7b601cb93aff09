import { principalOf, publicUrlsOf } from '../platform/http/context.ts';
import { newRouter } from '../platform/http/routing.ts';
import { presignRoute, putUploadRoute } from './upload.routes.ts';

export const uploadRouter = newRouter()
  .openapi(presignRoute, (c) => {
    const { files } = c.req.valid('json');
    const platform = c.get('platform');
    const organizationId = principalOf(c).organization.id;
    const uploads = files.map((file) => {
      const { uploadUrl, fileKey } = platform.uploads.presign(c.get('world'), organizationId, { ...file, owner: 'presign' }, publicUrlsOf(c).base);
      return { uploadUrl, fileKey };
    });
    return c.json({ uploads }, 200);
  })
  .openapi(putUploadRoute, async (c) => {
    const bytes = Buffer.from(await c.req.arrayBuffer());
    const record = await c.get('platform').uploads.receive(c.get('world'), c.req.valid('param').id, c.req.valid('query'), c.req.header('content-type'), bytes);
    return c.json({ fileKey: record.fileKey, byteLength: bytes.length, contentType: record.contentType }, 200);
  });
