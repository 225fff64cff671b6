"""The other end of a pseudo-terminal for LinuxSerialPort's tests.

Makes a pty pair, prints the slave's path, then serves on the master: a line "hello" is answered
"HELLO"; "settings?" is answered with the speed and raw-mode flags the slave now has (as the
Swift side set them through termios); "blob?" is answered with 5000 bytes 0..255 repeated;
"bye" ends it.
"""
import os
import sys
import termios

master, slave = os.openpty()
print(os.ttyname(slave), flush=True)
buffer = b""
while True:
    chunk = os.read(master, 4096)
    if not chunk:
        break
    buffer += chunk
    while b"\n" in buffer:
        line, buffer = buffer.split(b"\n", 1)
        if line == b"hello":
            os.write(master, b"HELLO\n")
        elif line == b"settings?":
            attrs = termios.tcgetattr(slave)
            raw = not (attrs[3] & termios.ICANON) and not (attrs[3] & termios.ECHO)
            cs8 = (attrs[2] & termios.CSIZE) == termios.CS8
            speed = 230400 if attrs[5] == termios.B230400 else attrs[5]
            os.write(master, f"{speed} raw={raw} cs8={cs8}\n".encode())
        elif line == b"blob?":
            os.write(master, bytes(i % 256 for i in range(5000)))
        elif line == b"bye":
            sys.exit(0)
