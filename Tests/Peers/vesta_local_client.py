"""Drives flapd's Local API with the real `vesta` LocalClient, unchanged, and prints what it saw.

Usage: vesta_local_client.py BASE_URL ENABLEMENT_TOKEN
Prints one JSON object: the key from enable(), the board read back, write results, the
errors a wrong key and a wrong token get.
"""
import json
import sys
import time
import urllib.error

import vesta

base, token = sys.argv[1], sys.argv[2]
out = {}

client = vesta.LocalClient(base_url=base)
try:
    client.enable("not-the-token")
except urllib.error.HTTPError as error:
    out["wrongToken"] = error.code
out["key"] = client.enable(token)
out["enabled"] = client.enabled
out["before"] = client.read_message()

rows = vesta.encode_text("{63} hello from vesta {66}", align="center", valign="middle")
out["written"] = rows
out["write"] = client.write_message(rows)
# The split-flap takes a few seconds; read until the board shows the message.
deadline = time.time() + 30
while time.time() < deadline:
    out["after"] = client.read_message()
    if out["after"] == rows:
        break
    time.sleep(0.2)

try:
    client.write_message([[0] * 21] * 6)
except ValueError as error:
    out["clientSideCheck"] = str(error)

stranger = vesta.LocalClient("wrong-key", base_url=base)
for name, call in [("readWrongKey", stranger.read_message), ("writeWrongKey", lambda: stranger.write_message(rows))]:
    try:
        call()
    except urllib.error.HTTPError as error:
        # A Vestaboard answers a wrong key in plain text, not JSON.
        out[name] = [error.code, error.read().decode(), error.headers.get("Content-Type")]

print(json.dumps(out))
