import { Type } from '@sinclair/typebox';
import { ToolError, type PluginDefinition } from '../plugin.js';

const ConfigSchema = Type.Object(
  {
    defaultTimeZone: Type.String({
      default: 'UTC',
      minLength: 1,
      maxLength: 64,
      description: 'IANA time zone used when the model names none, e.g. Europe/Lisbon.',
    }),
  },
  { additionalProperties: false },
);

/** Whether the runtime's time-zone database knows this name. */
function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

function offsetOf(timeZone: string, date: Date): string {
  const part = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
    .formatToParts(date)
    .find((entry) => entry.type === 'timeZoneName');
  const offset = part?.value.replace('GMT', '') ?? '';
  return offset === '' ? '+00:00' : offset;
}

/** The `clock` plugin: the current time, in a time zone, from the service's clock. */
export const clockPlugin: PluginDefinition<typeof ConfigSchema> = {
  name: 'clock',
  description: 'Tells the current date and time in any IANA time zone.',
  configSchema: ConfigSchema,
  secretsSchema: Type.Object({}, { additionalProperties: false }),
  async open(config, _secrets, context) {
    if (!isTimeZone(config.defaultTimeZone)) {
      throw new ToolError(`The clock plugin's defaultTimeZone ${config.defaultTimeZone} is not a known time zone.`);
    }
    return {
      tools: [
        {
          name: 'current_time',
          description: 'The current date and time. Give an IANA time zone (e.g. America/New_York) or leave it out.',
          inputSchema: {
            type: 'object',
            properties: { timeZone: { type: 'string', description: 'IANA time zone name, e.g. Asia/Tokyo.' } },
            additionalProperties: false,
          },
          sideEffects: false,
          async execute(input) {
            const timeZone = (input as { timeZone?: string }).timeZone ?? config.defaultTimeZone;
            if (!isTimeZone(timeZone)) throw new ToolError(`${timeZone} is not a known IANA time zone.`);
            const now = new Date(context.clock.now());
            const local = new Intl.DateTimeFormat('en-CA', {
              timeZone,
              dateStyle: 'short',
              timeStyle: 'medium',
              hourCycle: 'h23',
            })
              .format(now)
              .replace(', ', 'T');
            const weekday = new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'long' }).format(now);
            return { timeZone, local: `${local}${offsetOf(timeZone, now)}`, weekday, utc: now.toISOString() };
          },
        },
      ],
    };
  },
};
