// `kirin data`: the self-play data files (docs/DATAGEN.md).
//
//   kirin data stats FILE...      games, positions, records, bytes per position,
//                                 results and scores, per file and in all
//   kirin data convert IN OUT     version 1 (56-byte records) <-> chains, losslessly
//   kirin data manifest add FILE --command C --commit H --network N --seed S
//   kirin data manifest check [DIR]
//   kirin data manifest archive FILE | restore FILE

import { commandSpec, integerOption, readCommandLine, reportCommandLine } from '../../toolkit/command-line.js';
import { convertFile } from './convert.js';
import { addToManifest, archiveInManifest, checkManifest, restoreFromArchive, SELFPLAY_DIR } from './manifest.js';
import { dataFilesIn, formatStats, statsOfFiles } from './stats.js';

const USAGE = `usage: kirin data stats FILE|DIR...
       kirin data convert IN OUT
       kirin data manifest add FILE --command CMD --commit HASH --network NAME --seed S
       kirin data manifest check [DIR]
       kirin data manifest archive FILE
       kirin data manifest restore FILE

stats: per file and in all, the games, the positions (a chain file's scored
positions; a version-1 file's records), the records (what \`kirin train\` reads:
a chain file's quiet positions new in the file, or its converted records),
bytes per position and per record, the games' results and the search scores in
pawn buckets. A folder stands for its .kc and .bin files. A damaged file is
refused, naming the byte offset.

convert: a version-1 file (56-byte records) to a chain file, checked by reading
its records back; or a chain file to a version-1 file of its records. OUT must
not exist.

manifest: the self-play data in the repository (data/selfplay/): \`add\` writes
the entry of a chain file (*.kc) into manifest.json of its folder (games,
positions, records, bytes and SHA-256 measured, how it was made as given);
\`check\` checks every entry of DIR's manifest (default data/selfplay) against
its file, and that every chain file there has one. \`archive\` takes a file
that is committed as it is out of the working tree (to keep data/ under
150 MB), its entry kept with the commit that holds it (commit the deletion and
manifest.json); \`restore\` writes an archived file back from that commit, checked
by its SHA-256, for reading (not for committing again).
`;

const SPEC = commandSpec({
  name: 'kirin data',
  usage: USAGE,
  options: {
    command: { type: 'string' },
    commit: { type: 'string' },
    network: { type: 'string' },
    seed: { type: 'string' },
  },
  positionals: { min: 1, max: Infinity },
});

export async function runDataCli(argv: string[]): Promise<number> {
  const cl = readCommandLine(argv, SPEC);
  if (!cl.ok) return reportCommandLine(SPEC, cl.error);
  const [command, ...args] = cl.value.positionals;
  const refuse = (message: string): number => {
    process.stderr.write(`kirin data ${command}: ${message}\n`);
    return 2;
  };
  const values = cl.value.values;
  const given = Object.keys(values);
  const manifestAdd = command === 'manifest' && args[0] === 'add';
  if (!manifestAdd && given.length)
    return reportCommandLine(SPEC, { code: 'arguments', message: `--${given[0]} belongs to \`manifest add\`` });
  if (command === 'manifest') {
    if (manifestAdd) {
      if (args.length !== 2) return reportCommandLine(SPEC, { code: 'arguments', message: 'manifest add needs FILE' });
      for (const name of ['command', 'commit', 'network', 'seed'] as const)
        if (values[name] === undefined) return refuse(`add: --${name} is required`);
      const seed = integerOption(values, 'seed', 0, { min: 0 });
      if (!seed.ok) return refuse(seed.error.message);
      const r = addToManifest(args[1], {
        command: values.command!,
        commit: values.commit!,
        network: values.network!,
        seed: seed.value,
      });
      if (!r.ok) return refuse(r.error.message);
      process.stdout.write(JSON.stringify(r.value, null, 2) + '\n');
      return 0;
    }
    if (args[0] === 'check' && args.length <= 2) {
      const dir = args[1] ?? SELFPLAY_DIR;
      const r = checkManifest(dir);
      if (!r.ok) return refuse(r.error.message);
      if (r.value.length) return refuse(`${dir}:\n  ${r.value.join('\n  ')}`);
      process.stdout.write(`kirin data manifest: ${dir}: every file agrees with the manifest\n`);
      return 0;
    }
    if ((args[0] === 'archive' || args[0] === 'restore') && args.length === 2) {
      const archive = args[0] === 'archive';
      const r = archive ? archiveInManifest(args[1]) : restoreFromArchive(args[1]);
      if (!r.ok) return refuse(r.error.message);
      process.stdout.write(
        archive
          ? `kirin data manifest: ${args[1]} archived at ${r.value.archived}; commit its deletion and the manifest\n`
          : `kirin data manifest: ${args[1]} restored from ${r.value.archived} (${r.value.bytes} bytes, SHA-256 agrees)\n`,
      );
      return 0;
    }
    return reportCommandLine(SPEC, {
      code: 'arguments',
      message: 'manifest add FILE ..., manifest check [DIR], manifest archive FILE or manifest restore FILE',
    });
  }
  if (command === 'stats') {
    if (args.length === 0) return reportCommandLine(SPEC, { code: 'arguments', message: 'stats needs at least one file' });
    const paths = dataFilesIn(args);
    if (!paths.ok) return refuse(paths.error.message);
    const files = await statsOfFiles(paths.value);
    if (!files.ok) return refuse(files.error.message);
    process.stdout.write(formatStats(files.value) + '\n');
    return 0;
  }
  if (command === 'convert') {
    if (args.length !== 2) return reportCommandLine(SPEC, { code: 'arguments', message: 'convert needs IN and OUT' });
    const t0 = performance.now();
    const r = convertFile(args[0], args[1]);
    if (!r.ok) return refuse(r.error.message);
    const c = r.value;
    const secs = (performance.now() - t0) / 1000;
    let line =
      `kirin data convert: ${args[0]} (version ${c.from}, ${c.bytesIn} bytes) -> ${args[1]} (version ${c.to}, ` +
      `${c.bytesOut} bytes): ${c.records} records, ${(c.bytesOut / Math.max(1, c.records)).toFixed(2)} bytes/record, ${secs.toFixed(1)} s`;
    if (c.counts) {
      const joins = c.counts.joins
        .map((n, gap) => (gap && n ? `${n} after ${gap} ${gap === 1 ? 'ply' : 'plies'}` : ''))
        .filter((x) => x)
        .join(', ');
      line +=
        `\n  ${c.counts.games} games (a record that cannot be joined to the one before starts one), ` +
        `${c.counts.raw} records kept as they are; joins: ${joins || 'none'}; read back: identical`;
    }
    process.stdout.write(line + '\n');
    return 0;
  }
  return reportCommandLine(SPEC, { code: 'arguments', message: `unknown command '${command}' (stats or convert)` });
}
