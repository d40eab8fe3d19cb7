/**
 * What an image model accepts: the sizes it can make and how many images
 * one request may ask for. OpenAI's own models are known (their API refuses
 * other sizes); for other models the agent's config says, else the one size
 * every OpenAI-compatible server takes.
 */
export interface ImageModelBounds {
  sizes: string[];
  maxImages: number;
}

const known: Array<{ matches: (model: string) => boolean; bounds: ImageModelBounds }> = [
  {
    matches: (model) => model === 'dall-e-3',
    bounds: { sizes: ['1024x1024', '1792x1024', '1024x1792'], maxImages: 1 },
  },
  { matches: (model) => model === 'dall-e-2', bounds: { sizes: ['256x256', '512x512', '1024x1024'], maxImages: 10 } },
  {
    matches: (model) => model.startsWith('gpt-image-') || model.startsWith('chatgpt-image-'),
    bounds: { sizes: ['1024x1024', '1536x1024', '1024x1536'], maxImages: 10 },
  },
];

export function boundsOf(model: string, config: { sizes?: string[]; maxImages: number }): ImageModelBounds {
  const modelBounds = known.find((entry) => entry.matches(model))?.bounds ?? { sizes: ['1024x1024'], maxImages: 10 };
  const sizes = config.sizes ?? modelBounds.sizes;
  return { sizes: [...new Set(sizes)], maxImages: Math.min(config.maxImages, modelBounds.maxImages) };
}
