"""An Arduino-style pulse sensor on a pseudo-terminal: prints the terminal's path, then writes
`HR:66` every 200 ms until killed."""
import os
import time

master, slave = os.openpty()
print(os.ttyname(slave), flush=True)
while True:
    os.write(master, b"HR:66\r\n")
    time.sleep(0.2)
