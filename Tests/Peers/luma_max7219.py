"""What luma.led_matrix sends a MAX7219 cascade for a PBM image: the independent peer for
flapctl render --device max7219. A capturing serial interface stands in for SPI.

usage: luma_max7219.py IMAGE.pbm WIDTH HEIGHT ORIENTATION REVERSE(0|1) CONTRAST WITH_INIT(0|1)
Writes the bytes, as sent, to stdout.
"""
import sys

from PIL import Image
from luma.led_matrix.device import max7219


class Capture:
    def __init__(self):
        self.sent = bytearray()

    def data(self, data):
        self.sent.extend(data)

    def command(self, *cmd):
        self.sent.extend(cmd)

    def cleanup(self):
        pass


def main():
    path, width, height, orientation, reverse, contrast, with_init = sys.argv[1:8]
    capture = Capture()
    device = max7219(capture, width=int(width), height=int(height), block_orientation=int(orientation),
                     blocks_arranged_in_reverse_order=reverse == "1", contrast=int(contrast))
    if with_init != "1":
        capture.sent.clear()
    # PBM: 1 is black, which PIL reads as 0 in mode "1"; a 1 in the file is a lit LED here.
    image = Image.open(path).convert("1").point(lambda v: 255 if v == 0 else 0).convert("1")
    device.display(image)
    sys.stdout.buffer.write(bytes(capture.sent))
    device.cleanup = lambda: None


main()
