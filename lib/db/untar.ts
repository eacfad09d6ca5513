// Unpacks a ustar archive as a stream: what the archive holds never sits in memory whole (the
// embedded database's template is 40 MB of files; see pglite-template.ts).
import { mkdir, open } from "node:fs/promises";
import { dirname, resolve, sep } from "node:path";

const BLOCK = 512;
const PIECE = 1 << 16;

/** Reads exact byte counts from a stream of chunks, keeping at most one chunk buffered. */
class ByteReader {
  private chunk: Buffer = Buffer.alloc(0);

  constructor(private readonly source: AsyncIterator<Buffer>) {}

  /** up to `n` bytes (fewer only at the end of the stream), without copying a whole chunk */
  async read(n: number): Promise<Buffer> {
    const pieces: Buffer[] = [];
    let wanted = n;
    while (wanted > 0) {
      if (this.chunk.length === 0) {
        const next = await this.source.next();
        if (next.done) break;
        this.chunk = next.value;
      }
      const piece = this.chunk.subarray(0, wanted);
      this.chunk = this.chunk.subarray(piece.length);
      pieces.push(piece);
      wanted -= piece.length;
    }
    return pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces);
  }
}

const text = (header: Buffer, offset: number, length: number) => header.toString("latin1", offset, offset + length).replace(/\0.*$/s, "");
const octal = (header: Buffer, offset: number, length: number) => Number.parseInt(text(header, offset, length).trim() || "0", 8);

function checksumHolds(header: Buffer): boolean {
  let sum = 0;
  // the checksum field itself counts as eight spaces
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : header[i]!;
  return sum === octal(header, 148, 8);
}

/**
 * Writes a ustar archive's directories and regular files under `folder` with their modes. Any
 * other entry, a name leading outside `folder`, a bad checksum or a short archive is an error.
 */
export async function untar(source: AsyncIterable<Buffer>, folder: string): Promise<void> {
  const root = resolve(folder);
  const reader = new ByteReader(source[Symbol.asyncIterator]());
  for (;;) {
    const header = await reader.read(BLOCK);
    // the archive ends with zero blocks
    if (header.length === BLOCK && header.every((byte) => byte === 0)) return;
    if (header.length < BLOCK) throw new Error("tar: the archive ends inside a header");
    if (!checksumHolds(header)) throw new Error("tar: a header's checksum does not match");
    const prefix = text(header, 345, 155);
    const name = (prefix ? `${prefix}/` : "") + text(header, 0, 100);
    const target = resolve(root, `.${sep}${name}`);
    if (target !== root && !target.startsWith(root + sep)) throw new Error(`tar: ${name} leads outside the folder`);
    const mode = octal(header, 100, 8) & 0o777;
    const size = octal(header, 124, 12);
    const type = String.fromCharCode(header[156]!);
    if (type === "5") {
      await mkdir(target, { recursive: true, mode });
    } else if (type === "0" || type === "\0") {
      await mkdir(dirname(target), { recursive: true });
      const file = await open(target, "w", mode);
      try {
        for (let left = size; left > 0; ) {
          const piece = await reader.read(Math.min(left, PIECE));
          if (piece.length === 0) throw new Error(`tar: the archive ends inside ${name}`);
          await file.write(piece);
          left -= piece.length;
        }
      } finally {
        await file.close();
      }
      await reader.read((BLOCK - (size % BLOCK)) % BLOCK);
    } else {
      throw new Error(`tar: ${name} is neither a directory nor a regular file (type ${JSON.stringify(type)})`);
    }
  }
}
