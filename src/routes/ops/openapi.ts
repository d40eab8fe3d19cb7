import type { App } from '../../http/app-instance.js';

export function registerOpenApiRoute(app: App): void {
  app.get(
    '/v1/openapi.json',
    {
      schema: { hide: true },
    },
    async () => app.swagger(),
  );
}
