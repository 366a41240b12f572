import { nsfwResponseSchema } from '@/contract/entries';
import { request } from '../client';
import type { Result } from '../result';
import { paths } from '@/contract/paths';

/**
 * POST /v1/projects/residents/{id}/photos/nsfw (multipart, one part `image`): whether the image is
 * inappropriate at the young person's sensitivity setting. Status 0 when offline.
 */
export async function checkImage(residentId: string, image: Blob, filename = 'image'): Promise<Result<{ inappropriate: boolean }>> {
  const form = new FormData();
  form.append('image', image, filename);
  const result = await request(paths.nsfwCheck.build(residentId), {
    method: 'POST',
    form,
    schema: nsfwResponseSchema,
  });
  return result.ok ? { ok: true, status: result.status, data: { inappropriate: result.data.data.inappropriate } } : result;
}
