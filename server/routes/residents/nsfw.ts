import type { FastifyInstance } from 'fastify';
import { entryMessages } from '../../../src/contract/entries';
import { chosenMessages as chosen } from '../../../src/contract/messages';
import { idParamsSchema } from '../../../src/contract/users';
import { sniffBytes } from '../../../src/contract/file-type';
import { HttpError } from '../../lib/http-errors';
import { ClassifierUnavailableError, DECODABLE_IMAGES, isInappropriate } from '../../lib/image-classifier';
import { parse } from '../../lib/validate';
import { requireAuth } from '../../plugins/session';
import { imageCheckUnavailable } from '../../domain/uploads/checks';
import { uploadedFiles } from '../../domain/uploads/form-fields';
import { residentSensitivity } from '../../domain/entries/writes';
import { reachableResident } from '../../domain/access';
import { paths } from '../../../src/contract/paths';

/**
 * POST /api/v1/projects/residents/{id}/photos/nsfw (multipart, one part `image`): the image check
 * the PWA runs before attaching a picture. Answers `{inappropriate, sensitivity}` with the young
 * person's explicit_image_sensitivity (lib/image-classifier.ts: Porn + Hentai + Sexy at least
 * 0.8 / 0.6 / 0.4 for low / medium / high). For the young person themself and staff of their home;
 * anyone else 404. JPEG, PNG, GIF and WebP (by their bytes) are classified, animated ones on their
 * first, middle and last frames; other types, and images the server cannot decode (corrupt, over
 * 50 megapixels a frame), are 422 `image` "File type not allowed".
 */
export default async function nsfwRoute(app: FastifyInstance) {
  app.post(paths.nsfwCheck.pattern, async (request) => {
    const auth = requireAuth(request);
    const { id } = parse(idParamsSchema, request.params);
    const resident = await reachableResident(app, auth, id);
    const image = uploadedFiles(request).find((f) => f.field === 'image');
    if (!image) throw new HttpError(422, chosen.validationFailed, { image: ['Please add an image'] });
    const mime = sniffBytes(image.data);
    if (!mime || !DECODABLE_IMAGES.has(mime)) throw new HttpError(422, chosen.validationFailed, { image: [entryMessages.fileTypeNotAllowed] });
    const sensitivity = await residentSensitivity(app.db, resident.id);
    let result;
    try {
      result = await app.imageClassifier.classify(image.data, mime);
    } catch (error) {
      if (error instanceof ClassifierUnavailableError) {
        throw imageCheckUnavailable();
      }
      throw error;
    }
    if (!result || result.kind === 'undecodable') throw new HttpError(422, chosen.validationFailed, { image: [entryMessages.fileTypeNotAllowed] });
    return { success: true as const, data: { inappropriate: isInappropriate(result.probabilities, sensitivity), sensitivity } };
  });
}
