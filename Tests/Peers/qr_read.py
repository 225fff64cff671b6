"""Reads a QR code as flapctl prints it (Unicode half blocks, light modules drawn) with Debian's
zbarimg: the text on standard input becomes a PNG, 8 pixels a module, which zbarimg decodes.
Prints what zbarimg read, or exits 1 with its complaint."""
import os
import struct
import subprocess
import sys
import tempfile
import zlib

HALVES = {"█": (True, True), "▀": (True, False), "▄": (False, True), " ": (False, False)}
lines = [line for line in sys.stdin.read().split("\n") if line and set(line) <= set(HALVES)]
light = []
for line in lines:
    light.append([HALVES[c][0] for c in line])
    light.append([HALVES[c][1] for c in line])
scale, margin = 8, 4
width = (len(light[0]) + 2 * margin) * scale
rows = [[True] * len(light[0]) for _ in range(margin)] + light + [[True] * len(light[0]) for _ in range(margin)]
raw = b""
for row in rows:
    pixels = [True] * margin + row + [True] * margin
    line = b"\x00" + b"".join((b"\xff" if p else b"\x00") * scale for p in pixels)
    raw += line * scale
height = len(rows) * scale


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)) + \
    chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")
with tempfile.NamedTemporaryFile(suffix=".png", delete=False) as file:
    file.write(png)
read = subprocess.run(["zbarimg", "--quiet", "--raw", file.name], capture_output=True, text=True)
os.unlink(file.name)
if read.returncode != 0:
    sys.exit(f"zbarimg: {read.returncode} {read.stderr}")
print(read.stdout.strip())
