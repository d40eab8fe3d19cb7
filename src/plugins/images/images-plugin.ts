import { APICallError, generateImage, NoImageGeneratedError } from 'ai';
import { OutboundRefusedError } from '../../outbound/outbound-refused-error.js';
import { ToolError, type PluginDefinition } from '../plugin.js';
import { imagesPluginConfigSchema, imagesPluginSecretsSchema } from './config.js';
import { boundsOf } from './model-bounds.js';

const maxPromptLength = 4000;

/** The SSRF-safe client's refusal behind an error, however the AI SDK wrapped it. */
function refusalOf(error: unknown): OutboundRefusedError | null {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth += 1) {
    if (cause instanceof OutboundRefusedError) return cause;
  }
  return null;
}

/** What the model is told when the image API fails, without anything it was sent (a key could be quoted). */
function describeFailure(error: unknown): string {
  if (error instanceof ToolError) return error.message;
  // Its message names the host and the reason only; "could not be reached" would send the owner looking for an outage.
  const refusal = refusalOf(error);
  if (refusal !== null) return `${refusal.message}.`;
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    if (status === 401 || status === 403) return 'The image API rejected the credentials.';
    if (status === 400) return 'The image API refused the request (the prompt or the size may not be allowed).';
    if (status === 429) return 'The image API is rate limiting; try again later.';
    return `The image API failed${status ? ` (HTTP ${status})` : ''}.`;
  }
  if (NoImageGeneratedError.isInstance(error)) return 'The image API answered without an image.';
  return 'The image API could not be reached.';
}

/**
 * Lets an agent make pictures: `generate_image` asks an OpenAI or
 * OpenAI-compatible image model (through the AI SDK's image generation),
 * checks what comes back as an image by its bytes, stores it as a file of
 * the agent's account and attaches it to the reply, so it reaches the
 * client (`attachments`) and the agent's platforms.
 */
export const imagesPlugin: PluginDefinition<typeof imagesPluginConfigSchema, typeof imagesPluginSecretsSchema> = {
  name: 'images',
  description:
    'Generate images with an OpenAI or OpenAI-compatible image model; they are stored and sent with the reply.',
  configSchema: imagesPluginConfigSchema,
  secretsSchema: imagesPluginSecretsSchema,
  // The key goes to `baseUrl`, else to the server's endpoint of the provider.
  secretDestination: (config) => ({ provider: config.provider, baseUrl: config.baseUrl }),
  // The schema's pattern only says http(s); a baseUrl the URL parser refuses would fail every call as unreachable.
  async check(config) {
    if (config.baseUrl === undefined || URL.canParse(config.baseUrl)) return [];
    return [{ path: '/config/baseUrl', message: 'is not a URL' }];
  },
  async open(config, secrets, context) {
    const images = context.images;
    if (images === undefined) throw new Error('image generation is not available on this server');
    const model = images.model(config.provider, config.model, {
      ...(secrets.apiKey !== undefined ? { apiKey: secrets.apiKey } : {}),
      ...(config.baseUrl !== undefined ? { baseUrl: config.baseUrl } : {}),
    });
    const bounds = boundsOf(config.model, config);
    const [defaultSize] = bounds.sizes;
    return {
      tools: [
        {
          name: 'generate_image',
          description:
            `Generates ${bounds.maxImages > 1 ? `1 to ${bounds.maxImages} images` : 'an image'} from a description and ` +
            'attaches them to your reply, where the user sees them. Describe the picture fully (subject, style, ' +
            'composition). Returns the stored files (fileId, url, mediaType, width, height).',
          inputSchema: {
            type: 'object',
            properties: {
              prompt: { type: 'string', minLength: 1, maxLength: maxPromptLength, description: 'What to draw.' },
              size: { type: 'string', enum: bounds.sizes, description: `WIDTHxHEIGHT (default ${defaultSize}).` },
              count: {
                type: 'integer',
                minimum: 1,
                maximum: bounds.maxImages,
                description: `How many images (default 1, at most ${bounds.maxImages}).`,
              },
            },
            required: ['prompt'],
            additionalProperties: false,
          },
          // What a call leaves is a stored file of the account and a bill from the image provider: nothing
          // anyone outside sees or acts on. A call that began on an instance that stopped is made again (one
          // more picture billed) rather than leaving the reply without the picture asked for.
          sideEffects: false,
          async execute(input, call) {
            const { prompt, size, count } = input as { prompt: string; size?: string; count?: number };
            let result;
            try {
              result = await generateImage({
                model,
                prompt,
                n: count ?? 1,
                size: (size ?? defaultSize) as `${number}x${number}`,
                // One image per request where the model makes one: the SDK splits `n` into calls.
                maxImagesPerCall: bounds.maxImages,
                // A failed call is reported to the model, which may try again; the reply's time-out bounds it.
                maxRetries: 0,
                abortSignal: call.abortSignal,
              });
            } catch (error) {
              if (call.abortSignal.aborted) throw error;
              throw new ToolError(describeFailure(error));
            }
            const stored = await images.save(result.images.map((image) => image.uint8Array));
            call.attach?.(stored);
            return {
              images: stored.map(({ fileId, url, mediaType, width, height }) => ({
                fileId,
                url,
                mediaType,
                width,
                height,
              })),
              note: 'The images are attached to your reply; do not repeat their URLs unless asked.',
            };
          },
        },
      ],
    };
  },
};
