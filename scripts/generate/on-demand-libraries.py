#!/usr/bin/env python3
"""Writes Sources/COnDemand/functions.c: a definition of every function flapd calls in libsqlite3,
libasound, libgpiod, libsystemd and libqrencode, each passing its call on to the library, which is opened the
first time one of its functions is called (see Sources/COnDemand/loader.c for why).

Run from the project's root after using a new function of these libraries (the build fails with
"undefined reference" until then): python3 scripts/generate/on-demand-libraries.py
The prototypes come from the system's own headers, read by the toolchain's clang.
"""
import json
import pathlib
import re
import subprocess

LIBRARIES = [
    # (prefix of its functions, the C variable naming it in loader.c, its headers, and for functions
    # we declare under names of our own, the prefix that the library's names have instead)
    ("sqlite3_", "vw_sqlite3", ["sqlite3.h"], None),
    ("snd_", "vw_asound", ["alsa/asoundlib.h"], None),
    # libgpiod 1 and 2 use the same names for different APIs: Sources/CGPIOD declares both.
    ("vw_gpiod1_", "vw_gpiod1", ["gpiod_versions.h"], "gpiod_"),
    ("vw_gpiod2_", "vw_gpiod2", ["gpiod_versions.h"], "gpiod_"),
    ("sd_", "vw_systemd", ["systemd/sd-daemon.h", "systemd/sd-bus.h"], None),
    ("QRcode_", "vw_qrencode", ["qrencode.h"], None),
]
ROOT = pathlib.Path(__file__).resolve().parents[2]


def used_functions(prefix):
    """Every function of the library named in Swift sources or the project's C files."""
    pattern = re.compile(r"\b(" + re.escape(prefix) + r"[A-Za-z0-9_]+)\s*\(")
    names = set()
    for path in list(ROOT.glob("Sources/**/*.swift")) + list(ROOT.glob("Sources/C*/**/*.c")):
        if path.name == "functions.c":
            continue
        names.update(pattern.findall(path.read_text()))
    return names


def declarations(headers):
    source = "".join(f"#include <{h}>\n" for h in headers)
    out = subprocess.run(["clang", "-x", "c", "-I", str(ROOT / "Sources/CGPIOD"), "-fsyntax-only", "-Xclang", "-ast-dump=json", "-"],
                         input=source.encode(), capture_output=True, check=True).stdout
    found = {}
    for node in json.loads(out)["inner"]:
        if node.get("kind") == "FunctionDecl" and "name" in node:
            found[node["name"]] = node
    return found


def definition(node, library, prefix, symbol_prefix):
    name = node["name"]
    result = node["type"]["qualType"].split("(", 1)[0].strip()
    parameters = [p for p in node.get("inner", []) if p.get("kind") == "ParmVarDecl"]
    if node.get("variadic"):
        raise SystemExit(f"{name} takes a variable argument list, which cannot be passed on")
    typed, names = [], []
    for i, p in enumerate(parameters):
        argument = f"a{i}"
        kind = p["type"]["qualType"]
        # A parameter's type with its name in place: pointers to functions and arrays need it inside.
        if "(*)" in kind:
            typed.append(kind.replace("(*)", f"(*{argument})", 1))
        elif kind.endswith("]"):
            typed.append(kind.replace("[", f"{argument}[", 1))
        else:
            typed.append(f"{kind} {argument}")
        names.append(argument)
    if symbol_prefix:
        call = f'VW_CALL_AS({library}, {name}, "{symbol_prefix + name[len(prefix):]}")({", ".join(names)})'
    else:
        call = f"VW_CALL({library}, {name})({', '.join(names)})"
    body = f"{call};" if result == "void" else f"return {call};"
    return f"{result} {name}({', '.join(typed) or 'void'}) {{ {body} }}\n"


def main():
    lines = ["// Written by scripts/generate/on-demand-libraries.py; run it again rather than editing.\n",
             '#include "loader.h"\n']
    for prefix, library, headers, symbol_prefix in LIBRARIES:
        found = declarations(headers)
        lines.append(f"\n// {', '.join(headers)}\n")
        for name in sorted(used_functions(prefix)):
            if name not in found:
                continue  # a macro or a Swift name that merely starts the same way
            lines.append(definition(found[name], library, prefix, symbol_prefix))
    (ROOT / "Sources/COnDemand/functions.c").write_text("".join(lines))


main()
