/**
 * The command's settings, in one table: it gives the flags (parseArgs), the env variables, the keys of the
 * config file (`--config`, named as the flags) and how each is checked. Precedence: flag > env > config
 * file > default (the defaults are the sandbox's own, applied by the command).
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { LOG_FORMATS } from './platform/platform.ts';

/**
 * What a setting holds: text, a whole number, an on/off switch, a list (comma-separated in env), or a
 * path / paths (resolved against the config file's folder when given there).
 */
type Kind = 'text' | 'integer' | 'switch' | 'list' | 'path' | 'paths';

interface Setting {
  kind: Kind;
  /** The env variable that sets it, when one does. */
  env?: string;
  /** The values it accepts, when they are few. */
  choices?: readonly string[];
}

export const SETTINGS = {
  port: { kind: 'integer', env: 'PORT' },
  host: { kind: 'text', env: 'HOST' },
  data: { kind: 'path', env: 'IDV_SANDBOX_DATA' },
  memory: { kind: 'switch' },
  repair: { kind: 'switch' },
  'max-namespaces': { kind: 'integer', env: 'IDV_SANDBOX_MAX_NAMESPACES' },
  retention: { kind: 'integer', env: 'IDV_SANDBOX_RETENTION' },
  seed: { kind: 'integer', env: 'IDV_SANDBOX_SEED' },
  secret: { kind: 'text', env: 'IDV_SANDBOX_SECRET' },
  clock: { kind: 'text', env: 'IDV_SANDBOX_CLOCK' },
  'scenarios-dir': { kind: 'paths', env: 'IDV_SANDBOX_SCENARIOS_DIR' },
  scenario: { kind: 'list', env: 'IDV_SANDBOX_SCENARIOS' },
  'no-rate-limit': { kind: 'switch' },
  'public-url': { kind: 'text', env: 'IDV_SANDBOX_PUBLIC_URL' },
  'admin-token': { kind: 'text', env: 'IDV_SANDBOX_ADMIN_TOKEN' },
  smtp: { kind: 'text', env: 'IDV_SANDBOX_SMTP' },
  cors: { kind: 'text', env: 'IDV_SANDBOX_CORS' },
  'log-requests': { kind: 'switch', env: 'IDV_SANDBOX_LOG_REQUESTS' },
  'log-format': { kind: 'text', env: 'IDV_SANDBOX_LOG_FORMAT', choices: LOG_FORMATS },
  'strict-responses': { kind: 'switch', env: 'IDV_SANDBOX_STRICT_RESPONSES' },
  'shutdown-timeout': { kind: 'integer', env: 'IDV_SANDBOX_SHUTDOWN_TIMEOUT' },
  'invalid-keys-per-minute': { kind: 'integer', env: 'IDV_SANDBOX_INVALID_KEYS_PER_MINUTE' },
  'max-connections': { kind: 'integer', env: 'IDV_SANDBOX_MAX_CONNECTIONS' },
  'max-connections-per-client': { kind: 'integer', env: 'IDV_SANDBOX_MAX_CONNECTIONS_PER_CLIENT' },
  'headers-timeout': { kind: 'integer', env: 'IDV_SANDBOX_HEADERS_TIMEOUT' },
  'request-timeout': { kind: 'integer', env: 'IDV_SANDBOX_REQUEST_TIMEOUT' },
  'keep-alive-timeout': { kind: 'integer', env: 'IDV_SANDBOX_KEEP_ALIVE_TIMEOUT' },
  organizations: { kind: 'paths', env: 'IDV_SANDBOX_ORGANIZATIONS' },
  'port-file': { kind: 'path', env: 'IDV_SANDBOX_PORT_FILE' },
  'no-coverage': { kind: 'switch' },
  'coverage-out': { kind: 'path', env: 'IDV_SANDBOX_COVERAGE_OUT' },
  'require-coverage': { kind: 'text', env: 'IDV_SANDBOX_REQUIRE_COVERAGE' },
  'shadow-upstream': { kind: 'text', env: 'IDV_SANDBOX_SHADOW_UPSTREAM' },
  record: { kind: 'path', env: 'IDV_SANDBOX_RECORD' },
} as const satisfies Record<string, Setting>;

/** The flags that only the command itself reads (never in a config file). */
const COMMAND_FLAGS = { config: { type: 'string' }, help: { type: 'boolean' }, version: { type: 'boolean' } } as const;

type Name = keyof typeof SETTINGS;
type ValueOf<K extends Kind> = K extends 'switch' ? boolean : K extends 'list' | 'paths' ? string[] : string;
/** Each setting as given (integers still as their text), or absent. */
export type Settings = { -readonly [N in Name]?: ValueOf<(typeof SETTINGS)[N]['kind']> };
type Flags = Settings & { config?: string; help?: boolean; version?: boolean };

const NAMES = Object.keys(SETTINGS) as Name[];
const setting = (name: Name): Setting => SETTINGS[name];
const isList = (kind: Kind) => kind === 'list' || kind === 'paths';

/** Every flag the command takes: the settings, then --config, --help and --version. */
export const FLAG_NAMES: readonly string[] = [...NAMES, ...Object.keys(COMMAND_FLAGS)];

export function parseFlags(args: string[]): Flags {
  const options = Object.fromEntries(
    NAMES.map((name) => {
      const { kind } = setting(name);
      return [name, kind === 'switch' ? { type: 'boolean' as const } : { type: 'string' as const, multiple: isList(kind) }];
    }),
  );
  return parseArgs({ args, options: { ...options, ...COMMAND_FLAGS }, strict: true }).values as Flags;
}

/** A setting from its env variable: switches are on for 1 or true, lists are comma-separated. */
function fromEnv(kind: Kind, text: string | undefined): Settings[Name] {
  if (text === undefined) return undefined;
  if (kind === 'switch') return ['1', 'true'].includes(text);
  if (!isList(kind)) return text;
  const items = text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  return items.length > 0 ? items : undefined;
}

/** Each setting from the first place that gives it: flag, env, config file. */
export function resolveSettings(flags: Flags, env: NodeJS.ProcessEnv, config: Settings): Settings {
  const settings: Record<string, Settings[Name]> = {};
  for (const name of NAMES) {
    const { kind, env: variable, choices } = setting(name);
    const value = flags[name] ?? fromEnv(kind, variable === undefined ? undefined : env[variable]) ?? config[name];
    if (choices && typeof value === 'string' && !choices.includes(value)) throw new Error(`--${name} must be one of ${choices.join(', ')}, got "${value}"`);
    if (value !== undefined) settings[name] = value;
  }
  return settings as Settings;
}

/** The config file's schema: a key per setting, named as its flag, every key optional, no other key. */
const configFileSchema = () =>
  z.strictObject(
    Object.fromEntries(
      NAMES.map((name) => {
        const { kind, choices } = setting(name);
        const schemas: Record<Kind, z.ZodType> = {
          text: choices ? z.enum(choices as [string, ...string[]]) : z.string(),
          integer: z.number().int().min(0).transform(String),
          switch: z.boolean(),
          list: z.array(z.string()),
          path: z.string(),
          paths: z.array(z.string()),
        };
        return [name, schemas[kind].optional()];
      }),
    ),
  );
/** Built on the first config file read: a start without one does not build its schemas (about 10 ms). */
let configFile: ReturnType<typeof configFileSchema> | undefined;

/** What one problem of a config file says: which key, and what is wrong with it. */
function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys')
    return issue.keys.map((key) => `"${key}" is not a setting (the keys are the flag names: ${NAMES.join(', ')})`).join('; ');
  const key = issue.path.map(String).join('.');
  if (key === '') return 'it must hold one JSON object, its keys named as the flags';
  if (issue.code === 'invalid_type') return `"${key}" must be ${article(issue.expected)}`;
  return `"${key}": ${issue.message}`;
}

const article = (expected: string) =>
  ({ number: 'a whole number', string: 'a string', boolean: 'true or false', array: 'an array of strings' })[expected] ?? expected;

/** Reads and checks a config file; paths in it are resolved against its folder. Throws naming the key and the reason. */
export function readConfigFile(file: string): Settings {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`config file ${file}: ${(error as Error).message}`);
  }
  configFile ??= configFileSchema();
  const parsed = configFile.safeParse(json);
  if (!parsed.success) throw new Error(`config file ${file}: ${parsed.error.issues.map(describeIssue).join('; ')}`);
  const folder = dirname(resolve(file));
  const settings = parsed.data as Record<string, Settings[Name]>;
  for (const name of NAMES) {
    const value = settings[name];
    const { kind } = setting(name);
    if (kind === 'path' && typeof value === 'string') settings[name] = resolve(folder, value);
    if (kind === 'paths' && Array.isArray(value)) settings[name] = value.map((path) => resolve(folder, path));
  }
  return settings as Settings;
}
