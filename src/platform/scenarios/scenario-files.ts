/**
 * The scenario files (the shipped scenarios/, --scenarios-dir directories, single files), read at start-up
 * and again when they change: edit a file and the running sandbox takes it, no restart. A reload that
 * changed something is written to the request journal of the default namespace and every namespace in memory (`RELOAD /__sandbox/scenarios`), with
 * what was added, changed and removed, or why the files were refused (the previous scenarios then stay).
 *
 * Changes are noticed with fs.watch on the directories, debounced (an editor's save is several events);
 * `reload()` is the same step run at once, which tests call instead of waiting on the file system.
 */
import { type FSWatcher, watch } from 'node:fs';
import { dirname } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { DEFAULT_NAMESPACE, type Worlds } from '../namespaces/world.ts';
import type { DeclaredOperations } from '../operations/declared-operations.ts';
import { RELOAD_METHOD } from '../request-log/request-log.ts';
import type { Scenario } from './scenario.schema.ts';
import { loadScenarioDirectory, parseScenarioFile, type ScenarioRegistry } from './scenarios.ts';
import { refuseUnparseableStubs } from './stub-answers.ts';

export interface ScenarioSources {
  /** Directories whose *.json files are scenarios, the shipped one first. */
  directories: readonly string[];
  files: readonly string[];
  /** Scenarios active from start-up (--scenario): a reload may not remove them. */
  activeFromStart: readonly string[];
}

/**
 * What a reload reads and changes of the platform (the platform itself: this service sits below its type,
 * which gathers it).
 */
export interface ReloadTarget {
  scenarios: ScenarioRegistry;
  worlds: Worlds;
  /** The stubs' operations, and the areas to load before checking them. */
  operations: DeclaredOperations;
  log: { info(message: string): void; warn(message: string): void };
}

export type ReloadOutcome = { added: string[]; changed: string[]; removed: string[] } | { error: string };

/** Path of the journal entries of reloads: the resource whose content changed. */
export const RELOAD_PATH = '/__sandbox/scenarios';
const DEBOUNCE_MS = 100;

export class ScenarioFiles {
  private readonly watchers: FSWatcher[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private waiting: ((outcome: ReloadOutcome) => void)[] = [];
  private reloads = 0;

  constructor(readonly sources: ScenarioSources) {}

  /** Every scenario the sources define; a bad file throws, naming it and the field. */
  read(): Scenario[] {
    return [...this.sources.directories.flatMap(loadScenarioDirectory), ...this.sources.files.map(parseScenarioFile)];
  }

  /**
   * Reads the files again and, when they differ from the scenarios served, swaps them in and journals
   * it; refused files (invalid, a name twice, a stub that fits no operation, a --scenario gone) are
   * journaled and change nothing. Undefined when nothing changed.
   */
  reload(platform: ReloadTarget): ReloadOutcome | undefined {
    const outcome = this.apply(platform);
    if (outcome) {
      this.journal(platform, outcome);
      if ('error' in outcome) platform.log.warn(`Scenario files not reloaded: ${outcome.error}`);
      else platform.log.info(`Scenario files reloaded: ${describeChange(outcome)}.`);
      for (const resolve of this.waiting.splice(0)) resolve(outcome);
    }
    return outcome;
  }

  /** Resolves at the next reload that changed something or was refused. */
  nextReload(): Promise<ReloadOutcome> {
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** Reloads on changes in the source directories (and the directories of single files). */
  watch(platform: ReloadTarget): void {
    const directories = new Set([...this.sources.directories, ...this.sources.files.map((file) => dirname(file))]);
    for (const directory of directories) {
      const watcher = watch(directory, () => {
        clearTimeout(this.timer);
        // A changed stub is checked against the responses of the operations it answers for: every area's.
        this.timer = setTimeout(
          () =>
            void platform.operations.loadAll().then(
              () => this.reload(platform),
              (error: Error) => platform.log.warn(`Scenario files not reloaded: the areas they answer for did not load (${error.message})`),
            ),
          DEBOUNCE_MS,
        );
      });
      watcher.on('error', (error) => platform.log.warn(`Scenario directory ${directory} is no longer watched: ${error.message}`));
      watcher.unref();
      this.watchers.push(watcher);
    }
  }

  close(): void {
    clearTimeout(this.timer);
    for (const watcher of this.watchers.splice(0)) watcher.close();
  }

  private apply(platform: ReloadTarget): ReloadOutcome | undefined {
    const before = new Map(platform.scenarios.all().map((scenario) => [scenario.name, scenario]));
    let scenarios: Scenario[];
    try {
      scenarios = this.read();
      refuseUnparseableStubs(scenarios, platform.operations);
      const names = new Set(scenarios.map((scenario) => scenario.name));
      const lost = this.sources.activeFromStart.find((name) => !names.has(name));
      if (lost) throw new Error(`Scenario "${lost}" is active from start-up (--scenario) and no file defines it any more`);
      platform.scenarios.replace(scenarios);
    } catch (error) {
      return { error: (error as Error).message };
    }
    const added = scenarios.filter((scenario) => !before.has(scenario.name)).map((scenario) => scenario.name);
    const changed = scenarios.filter((scenario) => before.has(scenario.name) && !isDeepStrictEqual(before.get(scenario.name), scenario)).map((s) => s.name);
    const after = new Set(scenarios.map((scenario) => scenario.name));
    const removed = [...before.keys()].filter((name) => !after.has(name));
    if (added.length + changed.length + removed.length === 0) return undefined;
    for (const world of platform.worlds.loaded()) world.scenarios.filesChanged(changed, removed);
    return { added, changed, removed };
  }

  private journal(platform: ReloadTarget, outcome: ReloadOutcome): void {
    this.reloads += 1;
    // The default namespace always hears of it; others when they are in memory (a namespace built later starts from the new files).
    const worlds = new Set([platform.worlds.get(DEFAULT_NAMESPACE), ...platform.worlds.loaded()]);
    for (const world of worlds) {
      const now = world.clock.now();
      world.requestLog.add({
        requestId: `reload_${this.reloads}`,
        method: RELOAD_METHOD,
        path: RELOAD_PATH,
        query: {},
        headers: {},
        status: 'error' in outcome ? 400 : 200,
        responseBody: 'error' in outcome ? { error: `${outcome.error.replace(/\.$/, '')}. The previous scenarios stay.` } : outcome,
        explain: 'error' in outcome ? 'scenario files changed on disk but were refused' : `scenario files changed on disk: ${describeChange(outcome)}`,
        keyId: null,
        scenarios: [],
        firedRules: [],
        durationMs: 0,
        startedAtMs: now,
        finishedAtMs: now,
      });
    }
  }
}

const describeChange = ({ added, changed, removed }: { added: string[]; changed: string[]; removed: string[] }) =>
  [
    added.length ? `added ${added.join(', ')}` : '',
    changed.length ? `changed ${changed.join(', ')}` : '',
    removed.length ? `removed ${removed.join(', ')}` : '',
  ]
    .filter(Boolean)
    .join('; ');
