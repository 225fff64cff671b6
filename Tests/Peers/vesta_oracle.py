"""Answers layout requests with the Python `vesta` library itself, one JSON line each.

Request: {"op": "text"|"row"|"encode", "text", "align", "valign", "margin", "fill",
"maxRows", "breaks", "columns"}. Answer: {"rows": [[...]]} or {"error": message} when vesta
raises ValueError, {"crash": what} when vesta fails otherwise (an assertion), {"loops": true}
where vesta would never return (a margin that leaves zero columns for non-empty text).
"""
import json
import sys

import vesta.chars as chars

MISSING = object()


def answer(req):
    op = req.get("op", "text")
    text = req["text"]
    columns = req.get("columns", 22)
    chars.COLS = columns  # vesta reads the module constant at call time
    fill = req.get("fill", 0)
    align = req.get("align", "left")
    if op == "encode":
        return {"rows": [chars.encode(text)]}
    if op == "row":
        return {"rows": [chars.encode_row(text, align=align, fill=fill)]}
    margin = req.get("margin", 0)
    if columns - 2 * margin == 0 and any(line for line in text.splitlines()):
        # vesta encodes lazily, line by line, and never returns from the first non-empty
        # line; only an encoding error up to that line escapes.
        for line in text.splitlines():
            try:
                if chars.encode(line):
                    return {"loops": True}
            except ValueError as error:
                return {"error": str(error)}
    valign = req.get("valign", "top")
    kwargs = dict(align=align, valign=valign, margin=margin, fill=fill,
                  max_rows=req.get("maxRows", 6))
    if "breaks" in req:
        kwargs["breaks"] = frozenset(req["breaks"])
    return {"rows": chars.encode_text(text, **kwargs)}


def main():
    for line in sys.stdin:
        req = json.loads(line)
        try:
            out = answer(req)
        except ValueError as error:
            out = {"error": str(error)}
        except Exception as error:  # noqa: BLE001 - vesta's own failures are data here
            out = {"crash": type(error).__name__}
        sys.stdout.write(json.dumps(out) + "\n")


if __name__ == "__main__":
    main()
