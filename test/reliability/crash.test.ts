import { readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startCli } from '../helpers/cli-process.ts';
import { tempDataFile } from '../helpers/data-dir.ts';
import { countFound, outputMatches, streamOfCreates, untilAcknowledged } from '../helpers/keep-alive-traffic.ts';

/** Job inputs of 4 KB with compaction after 400 KB: a compaction's snapshot spans several written chunks. */
const PAD = 'p'.repeat(4000);
const SMALL_COMPACTIONS = { IDV_SANDBOX_COMPACT_AFTER_BYTES: '400000' };

describe('SIGKILL of the real CLI under a stream of creates', { timeout: 180_000 }, () => {
  it.each(['snapshot-partial', 'snapshot-renamed'])('during a compaction stopped at %s: every acknowledged write is found after a restart', async (point) => {
    const file = tempDataFile();
    const cli = await startCli(['--data', file], { ...SMALL_COMPACTIONS, IDV_SANDBOX_FAULT_PAUSE: point });
    const stream = streamOfCreates(cli.url, 2, PAD);
    await outputMatches(cli, new RegExp(`paused at ${point}`));
    // The server goes on acknowledging into the next journal while the snapshot write is stopped.
    await untilAcknowledged(stream, stream.acknowledged.length + 20);
    cli.child.kill('SIGKILL');
    await cli.exited;
    await stream.done;
    const files = readdirSync(dirname(file));
    const found = await countFound(file, stream.acknowledged);
    console.log(`SIGKILL at ${point} (files: ${files.join(', ')}): acknowledged ${stream.acknowledged.length}, found ${found}`);
    expect(found).toBe(stream.acknowledged.length);
  });

  const kills = process.env.IDV_SANDBOX_LONG_FAULTS ? 10 : 2;
  it(`at ${kills} arbitrary moments of frequent compactions: every acknowledged write is found after each restart`, async () => {
    const file = tempDataFile();
    const acknowledged: string[] = [];
    for (let kill = 1; kill <= kills; kill++) {
      const cli = await startCli(['--data', file], { IDV_SANDBOX_COMPACT_AFTER_BYTES: '50000' });
      const stream = streamOfCreates(cli.url, 3, PAD);
      await untilAcknowledged(stream, 40 + 17 * kill);
      cli.child.kill('SIGKILL');
      await cli.exited;
      await stream.done;
      acknowledged.push(...stream.acknowledged);
      const found = await countFound(file, acknowledged);
      console.log(`SIGKILL ${kill} of ${kills}: acknowledged ${acknowledged.length} in all, found ${found}`);
      expect(found).toBe(acknowledged.length);
    }
  });
});
