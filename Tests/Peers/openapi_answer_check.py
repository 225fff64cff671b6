"""Checks a JSON answer (on standard input) against a schema of flapd's OpenAPI description.

Usage: openapi_answer_check.py OPENAPI_FILE SCHEMA_NAME
Prints "valid", or the first mismatch and where it is.
"""
import json
import sys

import jsonschema

document = json.load(open(sys.argv[1]))
schema = {"$ref": f"#/components/schemas/{sys.argv[2]}", "components": document["components"]}
try:
    jsonschema.Draft202012Validator(schema).validate(json.load(sys.stdin))
except jsonschema.ValidationError as error:
    print(f"invalid at {'/'.join(map(str, error.absolute_path))}: {error.message}")
    sys.exit(1)
print("valid")
