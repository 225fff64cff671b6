"""The toml-test corpus (github.com/toml-lang/toml-test), TOML 1.0's valid and invalid documents,
read by Python's tomllib, for flapd's TOML reader to be compared with.

The corpus comes as data inside tomlkit's source archive on PyPI (tests/toml-test), downloaded
once into CACHE and checked against its digest; nothing of it is kept in the project.

Usage: toml_test_corpus.py CACHE
Prints one JSON object a line: {"name", "expected": "valid"|"invalid", "utf8": bool,
"document" (the text, when it is UTF-8), "tomllib" (tomllib's reading as canonical JSON, or
"invalid")}.
"""
import hashlib
import json
import math
import os
import subprocess
import sys
import tarfile
import tomllib

ARCHIVE = "tomlkit-0.15.2.tar.gz"
DIGEST = "83e32755ba1d20d9340bd069ee97e9f6232ba2346b63ffcba425de01f7e327a6"
ROOT = "tomlkit-0.15.2/tests/toml-test/tests/"


def archive(cache):
    path = os.path.join(cache, ARCHIVE)
    if not os.path.exists(path):
        os.makedirs(cache, exist_ok=True)
        subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--no-binary", ":all:",
                        "--dest", cache, "tomlkit==0.15.2"], check=True, stdout=sys.stderr)
    with open(path, "rb") as file:
        if hashlib.sha256(file.read()).hexdigest() != DIGEST:
            sys.exit(f"{path} is not the archive expected (its SHA-256 differs)")
    return path


def plain(v):
    """The same canonical form as TOMLParserTests.canonical."""
    if isinstance(v, dict):
        return {k: plain(x) for k, x in v.items()}
    if isinstance(v, list):
        return [plain(x) for x in v]
    if isinstance(v, float) and (math.isinf(v) or math.isnan(v)):
        return str(v)
    if isinstance(v, float):
        return {"float": repr(v)}
    if isinstance(v, (bool, int, str)):
        return v
    return {"date": v.isoformat()}


def main():
    with tarfile.open(archive(sys.argv[1])) as tar:
        names = tar.extractfile(ROOT + "files-toml-1.0.0").read().decode().split()
        for name in names:
            if not name.endswith(".toml"):
                continue
            data = tar.extractfile(ROOT + name).read()
            entry = {"name": name, "expected": name.split("/")[0]}
            try:
                text = data.decode("utf-8")
                entry["utf8"] = True
                entry["document"] = text
            except UnicodeDecodeError:
                entry["utf8"] = False
            try:
                read = tomllib.loads(data.decode("utf-8", errors="strict"))
                entry["tomllib"] = json.dumps(plain(read), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
            except (tomllib.TOMLDecodeError, UnicodeDecodeError):
                entry["tomllib"] = "invalid"
            print(json.dumps(entry, ensure_ascii=False))


main()
