// `kirin data convert IN OUT`: a version-1 file (56-byte records) to a chain
// file, or a chain file to a version-1 file of its records (docs/DATAGEN.md).
// A conversion to chains is checked when written: the new file's records are
// read back and compared with the input, byte for byte.

import { closeSync, existsSync, fstatSync, openSync, readSync, rmSync, statSync, writeSync } from 'node:fs';
import { err, ok, type Result } from '../../src/dev.js';
import { ChainWriter, openChainForAppend } from '../datagen/chain.js';
import { HEADER_SIZE, RECORD_SIZE, fileVersion, forEachV1Record, makeHeader } from '../datagen/format.js';
import { forEachChainRecord, V1ToChain, type ConvertCounts } from '../datagen/records.js';

export interface ConvertReport {
  from: number;
  to: number;
  records: number;
  bytesIn: number;
  bytesOut: number;
  /** Version 1 to chains: how the records were joined (null the other way). */
  counts: ConvertCounts | null;
}

/** Converts `input` into the new file `output` (the other format); refuses to overwrite a file. */
export function convertFile(input: string, output: string, blockPositions = 1 << 16): Result<ConvertReport, string> {
  const v = fileVersion(input);
  if (!v.ok) return err('convert', `${input}: ${v.error.message}`);
  if (existsSync(output)) return err('convert', `${output} exists (the converter writes a new file)`);
  const r = v.value === 1 ? toChains(input, output, blockPositions) : toRecords(input, output);
  // A failed conversion leaves no file behind.
  if (!r.ok) rmSync(output, { force: true });
  return r;
}

function toChains(input: string, output: string, blockPositions: number): Result<ConvertReport, string> {
  const opened = openChainForAppend(output);
  if (!opened.ok) return err('convert', `${output}: ${opened.error.message}`);
  const fd = opened.value.fd;
  const writer = new ChainWriter(fd, blockPositions);
  const conv = new V1ToChain((e) => writer.add(e));
  let failed = '';
  try {
    const r = forEachV1Record(input, (buf, off, index) => {
      if (failed) return;
      const a = conv.add(buf, off);
      if (!a.ok) failed = `record ${index}: ${a.error.message}`;
    });
    if (!r.ok) return err('convert', `${input}: ${r.error.message}`);
    const e = conv.end();
    if (!e.ok) failed ||= e.error.message;
    const f = writer.flush();
    if (!f.ok) failed ||= f.error.message;
  } finally {
    closeSync(fd);
  }
  if (failed) return err('convert', `${input}: ${failed}`);
  const same = sameRecords(input, output);
  if (!same.ok) return same;
  return ok({
    from: 1,
    to: 2,
    records: conv.counts.records,
    bytesIn: statSync(input).size,
    bytesOut: statSync(output).size,
    counts: conv.counts,
  });
}

/** Whether the record view of chain file `chains` is the records of version-1 file `records`, byte for byte. */
export function sameRecords(records: string, chains: string): Result<number, string> {
  const fd = openSync(records, 'r');
  try {
    const n = Math.floor((fstatSync(fd).size - HEADER_SIZE) / RECORD_SIZE);
    const per = 4096;
    const buf = new Uint8Array(per * RECORD_SIZE);
    let loaded = -1;
    let differ = -1;
    const r = forEachChainRecord(chains, (rec, off, index) => {
      if (differ >= 0) return;
      if (index >= n) {
        differ = index;
        return;
      }
      const chunk = Math.floor(index / per);
      if (chunk !== loaded) {
        readSync(fd, buf, 0, Math.min(per, n - chunk * per) * RECORD_SIZE, HEADER_SIZE + chunk * per * RECORD_SIZE);
        loaded = chunk;
      }
      const at = (index % per) * RECORD_SIZE;
      for (let i = 0; i < RECORD_SIZE; i++)
        if (rec[off + i] !== buf[at + i]) {
          differ = index;
          return;
        }
    });
    if (!r.ok) return err('convert', `${chains}: ${r.error.message}`);
    if (differ >= 0) return err('convert', `${chains}: record ${differ} differs from ${records} (a converter bug)`);
    if (r.value.records !== n) return err('convert', `${chains}: ${r.value.records} records, ${records} has ${n}`);
    return ok(n);
  } finally {
    closeSync(fd);
  }
}

function toRecords(input: string, output: string): Result<ConvertReport, string> {
  const fd = openSync(output, 'wx');
  let records = 0;
  try {
    writeSync(fd, makeHeader());
    const per = 4096;
    const buf = new Uint8Array(per * RECORD_SIZE);
    let k = 0;
    const r = forEachChainRecord(input, (rec, off) => {
      buf.set(rec.subarray(off, off + RECORD_SIZE), k * RECORD_SIZE);
      if (++k === per) {
        writeSync(fd, buf, 0, k * RECORD_SIZE);
        k = 0;
      }
    });
    if (!r.ok) return err('convert', `${input}: ${r.error.message}`);
    if (k) writeSync(fd, buf, 0, k * RECORD_SIZE);
    records = r.value.records;
  } finally {
    closeSync(fd);
  }
  return ok({ from: 2, to: 1, records, bytesIn: statSync(input).size, bytesOut: statSync(output).size, counts: null });
}
