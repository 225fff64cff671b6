"""pyvbml, the Python port of Vestaboard's VBML renderer, as the other side of flapd's.

Reads one VBML document a line on standard input and answers each on its own line, in order:
{"rows": [[...]]} or {"error": "..."}.
"""
import json
import sys

from pyvbml.vbml import parse

for line in sys.stdin:
    try:
        answer = {"rows": parse(json.loads(line))}
    except Exception as error:  # pyvbml raises whatever its code meets: each is a refusal here
        answer = {"error": f"{type(error).__name__}: {error}"}
    print(json.dumps(answer), flush=True)
