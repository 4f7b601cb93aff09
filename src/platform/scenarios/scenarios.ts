/**
 * Scenario loading and matching. Scenarios are active for a namespace (control plane, --scenario) or for
 * one request (header `X-Sandbox-Scenario: a,b`). Rule counters (firstN / afterN) and the seeded draws of
 * `probability` rules live in the namespace, so 'fail twice, then succeed' and 'flaky' are reproducible.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { rngFrom } from '../random/random.ts';
import { ScenarioSchema, type Behaviour, type Scenario, type ScenarioRule } from './scenario.schema.ts';

/** Reads every scenarios/*.json; a bad file stops start-up with the file and the field named. */
export function loadScenarioDirectory(directory: string): Scenario[] {
  const files = readdirSync(directory)
    .filter((name) => name.endsWith('.json'))
    .sort();
  return files.map((name) => parseScenarioFile(join(directory, name)));
}

export function parseScenarioFile(path: string): Scenario {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`Scenario file ${path} is not valid JSON: ${(error as Error).message}`);
  }
  // Read once, at start: zod's fast path would generate and compile a parser per object schema for one use.
  const parsed = ScenarioSchema.safeParse(json, { jitless: true });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`Scenario file ${path} is invalid at "${issue?.path.join('.') || '(root)'}": ${issue?.message}`);
  }
  return parsed.data;
}

export class ScenarioRegistry {
  private byName = new Map<string, Scenario>();

  constructor(scenarios: Scenario[]) {
    this.replace(scenarios);
  }

  /** All scenarios at once (a reload of the files); two of one name leave the registry as it was. */
  replace(scenarios: readonly Scenario[]): void {
    const byName = new Map<string, Scenario>();
    for (const scenario of scenarios) {
      if (byName.has(scenario.name)) throw new Error(`Scenario "${scenario.name}" is defined twice: rename one of the files' scenarios.`);
      byName.set(scenario.name, scenario);
    }
    this.byName = byName;
  }

  get(name: string): Scenario | undefined {
    return this.byName.get(name);
  }

  all(): Scenario[] {
    return [...this.byName.values()];
  }

  names(): string[] {
    return [...this.byName.keys()];
  }
}

/** Glob → RegExp: `**` any segments, `*` any characters within one segment. */
export function pathPattern(glob: string): RegExp {
  const source = glob
    .split(/(\*\*|\*)/)
    .map((part) => (part === '**' ? '.*' : part === '*' ? '[^/]*' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`);
}

export interface RequestFacts {
  method: string;
  path: string;
  keyKind: 'live' | 'sandbox' | 'revoked' | undefined;
}

export interface ScenarioEffect {
  scenario: string;
  rule: ScenarioRule;
  /** Position of the rule in the scenario's `rules`. */
  index: number;
}

/**
 * The scenario state of one namespace: which scenarios are active, the scenarios added at run time
 * (visible in this namespace only, gone with its reset), rule counters and how often each rule fired.
 */
export class ScenarioState {
  private readonly active = new Set<string>();
  private readonly added = new Map<string, Scenario>();
  private readonly matchCounts = new Map<string, number>();
  private readonly fireCounts = new Map<string, number>();

  constructor(
    private readonly registry: ScenarioRegistry,
    private readonly seed: number,
    private readonly namespace: string,
    initial: readonly string[] = [],
  ) {
    for (const name of initial) this.activate(name);
  }

  /** A shipped or user-directory scenario, or one added to this namespace at run time. */
  get(name: string): Scenario | undefined {
    return this.added.get(name) ?? this.registry.get(name);
  }

  names(): string[] {
    // A file scenario reloaded under the name of one added here is shadowed by it, and listed once.
    return [...new Set([...this.registry.names(), ...this.added.keys()])];
  }

  /** Whether the scenario was added at run time (and so can be removed). */
  isAdded(name: string): boolean {
    return this.added.has(name);
  }

  /** Adds a scenario to this namespace; its name must be new. */
  add(scenario: Scenario): void {
    if (this.get(scenario.name)) throw new Error(`scenario ${scenario.name} exists`);
    this.added.set(scenario.name, scenario);
  }

  /** Removes a scenario added at run time, deactivating it. */
  remove(name: string): void {
    this.deactivate(name);
    this.added.delete(name);
    this.forgetFires(name);
  }

  activeNames(): string[] {
    return [...this.active];
  }

  isActive(name: string): boolean {
    return this.active.has(name);
  }

  /** Activation restarts the scenario: match counters (firstN / afterN) and fire counts. */
  activate(name: string): void {
    if (!this.get(name)) throw new Error(`unknown scenario ${name}`);
    this.active.add(name);
    this.resetCounters(name);
    this.forgetFires(name);
  }

  /** After the files changed: a scenario gone is deactivated, a changed one restarts its counters. */
  filesChanged(changed: readonly string[], removed: readonly string[]): void {
    for (const name of removed) {
      if (this.get(name)) continue;
      this.deactivate(name);
      this.forgetFires(name);
    }
    for (const name of changed) {
      if (this.added.has(name)) continue;
      this.resetCounters(name);
      this.forgetFires(name);
    }
  }

  /** Fire counts stay readable after deactivation. */
  deactivate(name: string): void {
    this.active.delete(name);
    this.resetCounters(name);
  }

  /** Active scenarios plus the request's own, without duplicates. */
  effectiveNames(requestScenarios: readonly string[]): string[] {
    // Most requests of most namespaces have none: asked twice per request, answered without building a set.
    if (this.active.size === 0 && requestScenarios.length === 0) return [];
    return [...new Set([...this.active, ...requestScenarios])];
  }

  /** The active or request scenario that switches the behaviour on, if any. */
  behaviourSource(behaviour: Behaviour, requestScenarios: readonly string[]): string | undefined {
    return this.effectiveNames(requestScenarios).find((name) => this.get(name)?.behaviours.includes(behaviour));
  }

  /**
   * The rules that apply to this request, counting the match for firstN/afterN and drawing the seeded
   * chance for probability rules.
   */
  effectsFor(facts: RequestFacts, requestScenarios: readonly string[]): ScenarioEffect[] {
    const effects: ScenarioEffect[] = [];
    for (const name of this.effectiveNames(requestScenarios)) {
      const scenario = this.get(name);
      scenario?.rules.forEach((rule, index) => {
        if (!ruleMatches(rule, facts)) return;
        const counterKey = `${name}#${index}`;
        const seen = this.matchCounts.get(counterKey) ?? 0;
        this.matchCounts.set(counterKey, seen + 1);
        if (seen < rule.afterN) return;
        if (rule.firstN !== undefined && seen - rule.afterN >= rule.firstN) return;
        if (rule.probability < 1 && !(rngFrom(this.seed, this.namespace, 'scenario', counterKey, seen).next() < rule.probability)) return;
        effects.push({ scenario: name, rule, index });
      });
    }
    return effects;
  }

  /** Counts one firing of a rule (its index) or a behaviour (its name). */
  recordFire(scenario: string, rule: number | Behaviour): void {
    const key = `${scenario}#${rule}`;
    this.fireCounts.set(key, (this.fireCounts.get(key) ?? 0) + 1);
  }

  fireCount(scenario: string, rule: number | Behaviour): number {
    return this.fireCounts.get(`${scenario}#${rule}`) ?? 0;
  }

  private resetCounters(name: string): void {
    for (const key of [...this.matchCounts.keys()]) if (key.startsWith(`${name}#`)) this.matchCounts.delete(key);
  }

  private forgetFires(name: string): void {
    for (const key of [...this.fireCounts.keys()]) if (key.startsWith(`${name}#`)) this.fireCounts.delete(key);
  }
}

function ruleMatches(rule: ScenarioRule, facts: RequestFacts): boolean {
  if (rule.match.methods && !rule.match.methods.includes(facts.method as never)) return false;
  if (rule.match.keyKinds && !rule.match.keyKinds.includes(facts.keyKind as never)) return false;
  return pathPattern(rule.match.path).test(facts.path);
}
