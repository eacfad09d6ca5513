import { mkdtemp, readFile, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { untar } from "../../lib/db/untar.ts";

const folders: string[] = [];
afterAll(async () => {
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

async function folder(): Promise<string> {
  const made = await mkdtemp(join(tmpdir(), "untar-"));
  folders.push(made);
  return made;
}

/** One ustar header block, written field by field as tar writers do. */
function header(entry: { name: string; type: string; size?: number; mode?: number; prefix?: string }): Buffer {
  const block = Buffer.alloc(512);
  block.write(entry.name, 0, "latin1");
  block.write(`${(entry.mode ?? 0o644).toString(8).padStart(7, "0")}\0`, 100, "latin1");
  block.write(`${(entry.size ?? 0).toString(8).padStart(11, "0")}\0`, 124, "latin1");
  block.write(entry.type, 156, "latin1");
  block.write("ustar\u000000", 257, "latin1");
  if (entry.prefix) block.write(entry.prefix, 345, "latin1");
  block.fill(0x20, 148, 156);
  const sum = block.reduce((total, byte) => total + byte, 0);
  block.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148, "latin1");
  return block;
}

function file(name: string, content: string, mode = 0o600, prefix?: string): Buffer {
  const body = Buffer.from(content);
  const padded = Buffer.alloc(Math.ceil(body.length / 512) * 512);
  body.copy(padded);
  return Buffer.concat([header({ name, type: "0", size: body.length, mode, ...(prefix && { prefix }) }), padded]);
}

const END = Buffer.alloc(1024);

/** The archive delivered in chunks of `size` bytes, as a gunzip stream would. */
async function* chunks(archive: Buffer, size: number): AsyncIterable<Buffer> {
  for (let at = 0; at < archive.length; at += size) yield archive.subarray(at, at + size);
}

describe("untar (lib/db/untar.ts)", () => {
  it("writes directories and files with their modes, whatever the chunk boundaries", async () => {
    const big = "x".repeat(70_000);
    const archive = Buffer.concat([header({ name: "/base", type: "5", mode: 0o700 }), file("/base/1", "one", 0o600), file("big", big, 0o640, "/base/deep"), file("/PG_VERSION", "17\n", 0o644), END]);
    for (const size of [7, 512, 100_000]) {
      const target = await folder();
      await untar(chunks(archive, size), target);
      expect(await readFile(join(target, "base", "1"), "utf8")).toBe("one");
      expect(await readFile(join(target, "base", "deep", "big"), "utf8")).toBe(big);
      expect(await readFile(join(target, "PG_VERSION"), "utf8")).toBe("17\n");
      expect((await stat(join(target, "base"))).mode & 0o777).toBe(0o700);
      expect((await stat(join(target, "base", "deep", "big"))).mode & 0o777).toBe(0o640);
    }
  });

  it("refuses a name leading outside the folder, and writes nothing there", async () => {
    const target = await folder();
    await expect(untar(chunks(Buffer.concat([file("../escaped", "no"), END]), 512), join(target, "inner"))).rejects.toThrow(/leads outside the folder/);
    expect(await readdir(target)).toEqual([]);
  });

  it("refuses a corrupt header, a short archive and entries other than directories and files", async () => {
    const corrupt = file("a", "content");
    corrupt[0] = "b".charCodeAt(0);
    await expect(untar(chunks(Buffer.concat([corrupt, END]), 512), await folder())).rejects.toThrow(/checksum/);
    await expect(untar(chunks(file("data", "y".repeat(2000)).subarray(0, 1000), 512), await folder())).rejects.toThrow(/ends inside data/);
    await expect(untar(chunks(header({ name: "a", type: "0" }).subarray(0, 100), 512), await folder())).rejects.toThrow(/ends inside a header/);
    await expect(untar(chunks(Buffer.concat([header({ name: "link", type: "2" }), END]), 512), await folder())).rejects.toThrow(/neither a directory nor a regular file/);
  });
});
