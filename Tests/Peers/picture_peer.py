"""Reads the pictures flapctl writes as an independent decoder would: every PNG chunk's CRC and
the zlib stream checked by Python's zlib, then both files decoded by Pillow. Prints JSON."""
import json
import struct
import sys
import zlib

from PIL import Image


def png_chunks(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG signature"
    at, chunks = 8, []
    while at < len(data):
        (length,) = struct.unpack(">I", data[at:at + 4])
        kind, body = data[at + 4:at + 8], data[at + 8:at + 8 + length]
        (crc,) = struct.unpack(">I", data[at + 8 + length:at + 12 + length])
        assert zlib.crc32(kind + body) == crc, f"bad CRC on {kind!r}"
        chunks.append((kind.decode(), body))
        at += 12 + length
    return chunks


def hexes(image):
    return ["%02x%02x%02x" % p for p in image.convert("RGB").get_flattened_data()] if hasattr(image, "get_flattened_data") \
        else ["%02x%02x%02x" % p for p in image.convert("RGB").getdata()]


png_path, gif_path = sys.argv[1], sys.argv[2]
chunks = png_chunks(png_path)
raw = zlib.decompress(b"".join(body for kind, body in chunks if kind == "IDAT"))
png = Image.open(png_path)
png.load()
gif = Image.open(gif_path)
durations, frames = [], []
for k in range(gif.n_frames):
    gif.seek(k)
    durations.append(gif.info.get("duration"))
    if k in (0, gif.n_frames - 1):
        frames.append(hexes(gif))
print(json.dumps({
    "chunks": [kind for kind, _ in chunks],
    "raw_bytes": len(raw),
    "png_size": list(png.size),
    "png": hexes(png),
    "gif_size": list(gif.size),
    "gif_frames": gif.n_frames,
    "gif_loop": gif.info.get("loop"),
    "durations": durations,
    "gif_first": frames[0],
    "gif_last": frames[-1],
}))
