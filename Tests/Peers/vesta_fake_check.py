"""Points the real `vesta` clients, unchanged, at the fake Vestaboard and prints what they saw,
so the tests can check the fake answers as a board does.

Usage: vesta_fake_check.py BASE_URL
"""
import json
import sys
import urllib.error
import warnings

import vesta

warnings.simplefilter("ignore", DeprecationWarning)
base = sys.argv[1]
out = {}

local = vesta.LocalClient(base_url=base)
out["enabledKey"] = local.enable("enablement-token")
rows = vesta.encode_text("HELLO FROM VESTA", align="center", valign="middle")
out["localWrite"] = local.write_message(rows)
out["localReadBack"] = local.read_message() == rows

cloud = vesta.CloudClient("cloud-token", base_url=base)
out["cloudRead"] = cloud.read_message() == rows
out["cloudWrite"] = cloud.write_message("FIRST", forced=True)
shown = cloud.read_message()
out["cloudWrite"] = out["cloudWrite"] and shown != rows
cloud.write_message("TOO SOON")
out["cloudTooSoonShown"] = cloud.read_message() != shown

rw = vesta.ReadWriteClient("rw-key", base_url=base)
try:
    rw.write_message(rw.read_message())
    out["readWriteSame"] = "accepted"
except urllib.error.HTTPError as error:
    out["readWriteSame"] = str(error.code)
except Exception as error:  # vesta wraps HTTP errors in its own type in some versions
    out["readWriteSame"] = str(getattr(error, "code", "") or getattr(getattr(error, "response", None), "status", "") or error)

try:
    vesta.CloudClient("wrong", base_url=base).read_message()
except urllib.error.HTTPError as error:
    out["wrongToken"] = error.code
except Exception as error:
    out["wrongToken"] = getattr(error, "code", None) or getattr(getattr(error, "response", None), "status", None)

cloud.set_transition("wave", "gentle")
out["transition"] = cloud.get_transition().get("transition")
print(json.dumps(out))
